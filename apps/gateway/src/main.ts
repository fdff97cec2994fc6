import 'reflect-metadata';
import { CommandBus } from '@pfs/messaging';
import { createLogger } from '@pfs/platform';
import { createGatewayApp } from './gateway.app';
import { readGatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';

async function main(): Promise<void> {
  const config = readGatewayConfig();
  const logger = createLogger('gateway', config.logLevel);
  // One bus for the process: one reply channel and one set of queue connections.
  const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: config.commandTimeoutMs, name: 'gateway' });
  await bus.start();
  const runtime = { config, logger, bus };
  const app = await createGatewayApp(GatewayModule.forRoot(runtime), runtime);
  await app.listen(config.port, config.host);
  logger.info({ port: config.port, host: config.host, environment: config.serviceEnv }, 'gateway listening');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    // The app first (it stops accepting and drains), then the bus its requests were using.
    app
      .close()
      .then(() => bus.close())
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: (error as Error).message }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', service: 'gateway', msg: 'gateway failed to start', err: (error as Error).message })}\n`);
  process.exit(1);
});
