import './tracing.setup';
import 'reflect-metadata';
import { CommandBus } from '@pfs/messaging';
import { createLogger, handleShutdownSignals } from '@pfs/platform';
import { createGatewayApp } from './gateway.app';
import { readGatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { drainHttp } from './http/http-drain';
import { closeAdminServer, startGatewayAdminServer } from './metrics/gateway-admin';

async function main(): Promise<void> {
  const config = readGatewayConfig();
  const logger = createLogger('gateway', config.logLevel);
  // One bus for the process: one reply channel and one set of queue connections.
  const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: config.commandTimeoutMs, name: 'gateway' });
  await bus.start();
  const runtime = { config, logger, bus };
  const app = await createGatewayApp(GatewayModule.forRoot(runtime), runtime);
  await app.listen(config.port, config.host);
  const admin = await startGatewayAdminServer(app, bus, config.adminPort);
  logger.info({ port: config.port, adminPort: config.adminPort, host: config.host, environment: config.serviceEnv }, 'gateway listening');

  handleShutdownSignals({
    logger,
    timeoutMs: config.shutdownTimeoutMs,
    message: 'shutting down: finishing in-flight requests',
    // HTTP first (stop accepting, answer what was received), then Nest's hooks, the admin port
    // (probes and the last scrape are served until then), then the bus those requests were using.
    stop: async () => {
      await drainHttp(app);
      await app.close();
      await closeAdminServer(admin);
      await bus.close();
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', time: new Date().toISOString(), service: 'gateway', msg: 'gateway failed to start', err: (error as Error).message })}\n`);
  process.exit(1);
});
