import type { FastifyInstance } from 'fastify';
import { instrumentCommandBus, type CommandBus } from '@pfs/messaging';
import { createMetricsRegistry, httpRequestDurationHistogram, type MetricsRegistry } from '@pfs/platform';
import { routeTemplateOf } from '../http/route-template';

export const METRICS_PATH = '/metrics';

const registries = new WeakMap<FastifyInstance, MetricsRegistry>();

/**
 * The gateway's Prometheus metrics: request duration by method, route template and status (a
 * Fastify hook, so 404s and Swagger's routes count too), the CommandBus round trip per queue,
 * and Node's process metrics. Served on the admin port only (gateway-admin.ts), never on the
 * public one: route names, traffic and process figures are for the cluster. Call before the
 * app's routes are registered.
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
  registries.set(instance, registry);
  return registry;
}

/** The registry installGatewayMetrics gave this Fastify instance. */
export function gatewayMetricsOf(instance: FastifyInstance): MetricsRegistry {
  const registry = registries.get(instance);
  if (!registry) throw new Error('installGatewayMetrics was not called on this instance');
  return registry;
}
