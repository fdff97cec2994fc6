import type { FastifyInstance } from 'fastify';
import { instrumentCommandBus, type CommandBus } from '@pfs/messaging';
import { createMetricsRegistry, httpRequestDurationHistogram, renderMetrics, type MetricsRegistry } from '@pfs/platform';
import { routeTemplateOf } from '../http/route-template';

export const METRICS_PATH = '/metrics';

/**
 * The gateway's Prometheus metrics: request duration by method, route template and status (a
 * Fastify hook, so 404s and Swagger's routes count too), the CommandBus round trip per queue,
 * and Node's process metrics. Served at GET /metrics on the HTTP port, as a plain Fastify route:
 * no API key (scrapers have none) and not part of the partner API's OpenAPI document. Call
 * before the app's routes are registered.
 */
export function installGatewayMetrics(instance: FastifyInstance, bus: CommandBus): MetricsRegistry {
  const registry = createMetricsRegistry();
  const durations = httpRequestDurationHistogram(registry);
  instrumentCommandBus(registry, bus);

  instance.addHook('onResponse', (request, reply, done) => {
    // The template, never the path: ids in paths would make one series per resource.
    const route = routeTemplateOf(request) ?? '(unmatched)';
    durations.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  instance.get(METRICS_PATH, async (_request, reply) => {
    const { contentType, body } = await renderMetrics(registry);
    return reply.type(contentType).send(body);
  });
  return registry;
}
