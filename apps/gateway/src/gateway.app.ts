import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger } from '@pfs/platform';
import type { GatewayRuntime } from './gateway.module';
import { installRequestHooks } from './http/request-context.hooks';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi.document';

/**
 * Builds the gateway application on Fastify around `rootModule` (GatewayModule.forRoot in
 * production, a module importing it in tests) and initialises it, without listening.
 */
export async function createGatewayApp(rootModule: unknown, runtime: GatewayRuntime): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: runtime.config.bodyLimitBytes,
    // Room for malformed ids, which must reach the route and answer its *_not_found code.
    routerOptions: { maxParamLength: 512 },
    return503OnClosing: true,
  });
  // Before any route exists, so the hooks cover every route, including Swagger's and 404s.
  installRequestHooks(adapter.getInstance(), runtime.logger);
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    logger: new PinoNestLogger(runtime.logger),
  });
  serveOpenApi(app, buildOpenApiDocument(app, runtime.config.serviceEnv));
  await app.init();
  return app;
}
