import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { PrismaClient } from '@pfs/persistence';
import { PinoNestLogger, positiveInt, startAdminServer, type Logger } from '@pfs/platform';
import { Redis } from 'ioredis';
import { CommandConsumer } from './command-consumer';
import { EventConsumer } from './event-consumer';
import { OutboxRelay } from './outbox-relay';
import { LOGGER, PLATFORM_CONFIG, SERVICE_IDENTITY, type ServiceIdentity } from './service-runtime.module';
import type { PlatformConfig } from '@pfs/platform';

export interface RunningService {
  app: INestApplicationContext;
  admin: Server;
  stop(): Promise<void>;
}

/**
 * Starts a service process: the Nest context, its command and event consumers, the outbox
 * relay and the admin port (`/healthz`, `/readyz`). SIGTERM/SIGINT stop taking jobs, let the
 * active ones finish, stop the relay after its batch, then exit.
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
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectionName: `${identity.service}-health` });

  await prisma.$queryRaw`SELECT 1`;
  // Ready means consumed: senders must see the workers before /readyz says so. The admin port
  // opens meanwhile, so a Redis that is still down shows as "not ready" rather than a silent hang.
  let consuming = false;
  const consumersReady = Promise.all([commands.start(), events?.start()]).then(() => {
    consuming = true;
  });
  consumersReady.catch(() => undefined); // awaited below, after the admin port is open
  relay.start();

  const port = process.env.ADMIN_PORT === '0' ? 0 : positiveInt(process.env.ADMIN_PORT, defaultAdminPort, 'ADMIN_PORT');
  const admin = await startAdminServer(port, {
    postgres: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    redis: async () => {
      await redis.ping();
    },
    queues: async () => {
      if (!consuming || !commands.running) throw new Error('command queue not consumed');
    },
  });
  await consumersReady;
  logger.info({ adminPort: port, schema: identity.schema }, `${identity.service} service started`);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      logger.info('shutting down: finishing active jobs');
      await commands.close();
      await events?.close();
      await relay.stop();
      await new Promise<void>((resolve) => admin.close(() => resolve()));
      redis.disconnect();
      await app.close();
      await prisma.$disconnect();
      logger.info('stopped');
    })());
  return { app, admin, stop };
}

/** For `main.ts`: start, and exit cleanly on SIGTERM/SIGINT. */
export function runService(rootModule: unknown, defaultAdminPort: number): void {
  bootstrapService(rootModule, defaultAdminPort).then(
    (running) => {
      const onSignal = () => {
        running.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
    },
    (error: unknown) => {
      process.stderr.write(`${JSON.stringify({ level: 'fatal', msg: 'service failed to start', err: (error as Error).message })}\n`);
      process.exit(1);
    },
  );
}

function tryGet<T>(app: INestApplicationContext, token: abstract new (...args: never[]) => T): T | undefined {
  try {
    return app.get(token as never, { strict: false }) as T;
  } catch {
    return undefined;
  }
}
