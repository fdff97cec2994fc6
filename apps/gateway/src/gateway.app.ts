import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger } from '@pfs/platform';
import type { GatewayRuntime } from './gateway.module';
import { frameworkErrorHandler, installRequestHooks } from './http/request-context.hooks';
import { installIdempotencyHooks } from './idempotency/idempotency.hooks';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi.document';
import { installGatewayMetrics } from './metrics/gateway-metrics';

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
    // While closing, requests already on open connections are still served in full (with
    // their request id and envelope) rather than answered with Fastify's bare 503.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(runtime.logger),
  });
  // Before any route exists, so the hooks cover every route, including Swagger's and 404s.
  installRequestHooks(adapter.getInstance(), runtime.logger);
  installIdempotencyHooks(adapter.getInstance());
  installGatewayMetrics(adapter.getInstance(), runtime.bus);
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    logger: new PinoNestLogger(runtime.logger),
  });
  serveOpenApi(app, buildOpenApiDocument(app, runtime.config));
  await app.init();
  return app;
}
