import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger } from '@pfs/platform';
import type { GatewayRuntime } from './gateway.module';
import { clientErrorHandler, MAX_HEADER_BYTES, TIMEOUT_CHECK_INTERVAL_MS } from './http/client-error.handler';
import { installJsonBodyParser } from './http/json-body.parser';
import { parseQueryString } from './http/query-string.parser';
import { frameworkErrorHandler, installRequestHooks } from './http/request-context.hooks';
import { installIdempotencyHooks } from './idempotency/idempotency.hooks';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi.document';
import { installGatewayMetrics } from './metrics/gateway-metrics';

/**
 * Builds the gateway application on Fastify around `rootModule` (GatewayModule.forRoot in
 * production, a module importing it in tests) and initialises it, without listening.
 */
export async function createGatewayApp(rootModule: unknown, runtime: GatewayRuntime): Promise<NestFastifyApplication> {
  const { config } = runtime;
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: config.bodyLimitBytes,
    routerOptions: {
      // Room for malformed ids, which must reach the route and answer its *_not_found code.
      maxParamLength: 512,
      querystringParser: parseQueryString,
    },
    // A client that is slow to send its request is answered 408 and cut off within seconds;
    // an idle keep-alive connection outlives the load balancer's own idle timeout.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    clientErrorHandler: clientErrorHandler(runtime.logger),
    // While closing, requests already on open connections are still served in full (with
    // their request id and envelope) rather than answered with Fastify's bare 503.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(runtime.logger),
  });
  // Before any route exists, so the hooks cover every route, including Swagger's and 404s.
  installRequestHooks(adapter.getInstance(), runtime.logger);
  installJsonBodyParser(adapter.getInstance(), config.bodyLimitBytes);
  installIdempotencyHooks(adapter.getInstance());
  installGatewayMetrics(adapter.getInstance(), runtime.bus);
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    logger: new PinoNestLogger(runtime.logger),
    // Our JSON parser only (installJsonBodyParser): Nest's would add form-urlencoded bodies.
    bodyParser: false,
  });
  serveOpenApi(app, buildOpenApiDocument(app, config));
  await app.init();
  return app;
}
