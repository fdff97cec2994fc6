import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Clock, deadLetterQueueName } from '@pfs/contracts';
import { driverPoolOf, PrismaClient } from '@pfs/persistence';
import {
  handleShutdownSignals,
  MetricsRegistry,
  PinoNestLogger,
  positiveInt,
  renderMetrics,
  startAdminServer,
  type Logger,
} from '@pfs/platform';
import { CommandConsumer } from './command-consumer';
import { COMMAND_LOG_RETENTION_MS, CommandLog } from './command-log';
import { EventConsumer } from './event-consumer';
import { OutboxRelay } from './outbox-relay';
import { QueueDepthReader } from './queue-depth';
import { createProbeConnection } from './redis-connection';
import { instrumentService } from './service-metrics';
import { LOGGER, PLATFORM_CONFIG } from './service-runtime.module';
import { SERVICE_IDENTITY, type ServiceIdentity } from './service-identity';
import type { PlatformConfig } from '@pfs/platform';

export interface RunningService {
  app: INestApplicationContext;
  admin: Server;
  /** This instance's Prometheus registry (served at the admin port's `/metrics`). */
  metrics: MetricsRegistry;
  stop(): Promise<void>;
}

/**
 * Starts a service process: the Nest context, its command and event consumers, the outbox
 * relay and the admin port (`/healthz`, `/readyz`, `/metrics`). `stop()` drains: the consumers
 * stop taking jobs and finish the active ones, the relay stops after its batch, then the
 * connections close.
 */
export async function bootstrapService(rootModule: unknown, defaultAdminPort: number): Promise<RunningService> {
  const app = await NestFactory.createApplicationContext(rootModule as never, { bufferLogs: true });
  const logger = app.get<Logger>(LOGGER);
  app.useLogger(new PinoNestLogger(logger));
  const identity = app.get<ServiceIdentity>(SERVICE_IDENTITY);
  const config = app.get<PlatformConfig>(PLATFORM_CONFIG);
  const prisma = app.get(PrismaClient);
  const commands = app.get(CommandConsumer, { strict: false });
  const events = tryGet(app, EventConsumer);
  const relay = app.get(OutboxRelay);
  const metrics = app.get(MetricsRegistry);
  const redis = createProbeConnection(config.redisUrl, `${identity.service}-health`);
  const depth = new QueueDepthReader(
    { redisUrl: config.redisUrl, prefix: config.queuePrefix, name: identity.service },
    // A subscriber's dead-letter queue too: its `waiting` count is the dead letters held.
    [...commands.queueNames, ...(events?.hasSubscriptions ? [events.queueName, deadLetterQueueName(events.subscriber)] : [])],
  );
  const pool = driverPoolOf(prisma);
  instrumentService(metrics, {
    commands,
    events,
    relay,
    depth,
    pool: () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 } : undefined),
  });

  await prisma.$queryRaw`SELECT 1`;
  // Ready means consumed: senders must see the workers before /readyz says so. The admin port
  // opens meanwhile, so a Redis that is still down shows as "not ready" rather than a silent hang.
  let consuming = false;
  let stopping: Promise<void> | undefined;
  const consumersReady = Promise.all([commands.start(), events?.start()]).then(() => {
    consuming = true;
  });
  consumersReady.catch(() => undefined); // awaited below, after the admin port is open
  relay.start();
  const purgeCommandLog = startCommandLogPurge(app.get(CommandLog), app.get(Clock), logger);

  const port = process.env.ADMIN_PORT === '0' ? 0 : positiveInt(process.env.ADMIN_PORT, defaultAdminPort, 'ADMIN_PORT');
  const admin = await startAdminServer(
    port,
    {
      postgres: async () => {
        await prisma.$queryRaw`SELECT 1`;
      },
      redis: async () => {
        await redis.ping();
      },
      queues: async () => {
        if (stopping) throw new Error('shutting down');
        if (!consuming || !commands.running) throw new Error('command queue not consumed');
      },
    },
    { '/metrics': () => renderMetrics(metrics) },
  );
  await consumersReady;
  logger.info({ adminPort: port, schema: identity.schema }, `${identity.service} service started`);

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // In parallel: each stops taking work at once and waits only for its own work in flight.
      clearInterval(purgeCommandLog);
      await Promise.all([commands.close(), events?.close(), relay.stop()]);
      await closeServer(admin);
      await depth.close();
      redis.disconnect();
      await app.close();
      await prisma.$disconnect();
    })());
  return { app, admin, metrics, stop };
}

/** For `main.ts`: start, and drain then exit on SIGTERM/SIGINT (within SHUTDOWN_TIMEOUT_MS). */
export function runService(rootModule: unknown, defaultAdminPort: number): void {
  bootstrapService(rootModule, defaultAdminPort).then(
    (running) => {
      const config = running.app.get<PlatformConfig>(PLATFORM_CONFIG);
      handleShutdownSignals({
        logger: running.app.get<Logger>(LOGGER),
        stop: running.stop,
        timeoutMs: config.shutdownTimeoutMs,
        message: 'shutting down: finishing active jobs',
      });
    },
    (error: unknown) => {
      process.stderr.write(
        `${JSON.stringify({ level: 'fatal', time: new Date().toISOString(), msg: 'service failed to start', err: (error as Error).message })}\n`,
      );
      process.exit(1);
    },
  );
}

/** Deletes command-log entries past their retention now and every hour (every instance may; deleting twice is harmless). */
function startCommandLogPurge(log: CommandLog, clock: Clock, logger: Logger): NodeJS.Timeout {
  const purge = () =>
    log.purge(new Date(clock.now().getTime() - COMMAND_LOG_RETENTION_MS)).then(
      (deleted) => {
        if (deleted) logger.info({ deleted }, 'command log purged');
      },
      (error: unknown) => logger.warn({ err: (error as Error).message }, 'command log purge failed'),
    );
  void purge();
  return setInterval(() => void purge(), 60 * 60 * 1000).unref();
}

/** Stops the admin port; probes and scrapes hold keep-alive connections that must not delay exit. */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function tryGet<T>(app: INestApplicationContext, token: abstract new (...args: never[]) => T): T | undefined {
  try {
    return app.get(token as never, { strict: false }) as T;
  } catch {
    return undefined;
  }
}
