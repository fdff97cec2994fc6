import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CommandBus } from '@pfs/messaging';
import { renderMetrics, startAdminServer } from '@pfs/platform';
import { gatewayMetricsOf, METRICS_PATH } from './gateway-metrics';

/**
 * The gateway's admin port (`ADMIN_PORT`), like every service's: `/metrics`, `/healthz`, and
 * `/readyz` ready when Redis answers (what this process needs: the same check as the public
 * `/readyz?scope=gateway`). Kubernetes probes and scrapes it; only the monitoring namespace may
 * reach it, and it is never behind the public Service.
 */
export function startGatewayAdminServer(app: NestFastifyApplication, bus: CommandBus, port: number): Promise<Server> {
  const registry = gatewayMetricsOf(app.getHttpAdapter().getInstance());
  return startAdminServer(port, { redis: () => bus.ping() }, { [METRICS_PATH]: () => renderMetrics(registry) });
}

export function closeAdminServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
