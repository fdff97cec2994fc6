import { type DynamicModule, Global, Module, type Provider, type Type } from '@nestjs/common';
import { Clock, CursorCodec, EventOutbox, ProcessedEventLog, SystemClock, UnitOfWork, type CommandService } from '@pfs/contracts';
import { createPrismaClient, PrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import {
  createLogger,
  createMetricsRegistry,
  MetricsRegistry,
  readPlatformConfig,
  WebhookAttemptMetrics,
  type Logger,
  type PlatformConfig,
} from '@pfs/platform';
import { CommandConsumer, type AnyCommandHandler } from './command-consumer';
import { EventConsumer, type AnyEventHandler } from './event-consumer';
import { OutboxRelay } from './outbox-relay';
import { PrismaEventOutbox } from './prisma-event-outbox';
import { assertCommandDeadline } from './messaging-errors';
import { PrismaProcessedEventLog } from './prisma-processed-event-log';

export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const SERVICE_IDENTITY = Symbol('SERVICE_IDENTITY');

/** The service that makes webhook delivery attempts, and so exports their counter. */
const WEBHOOK_ATTEMPTS_OWNER: CommandService = 'webhook-delivery-worker';

export interface ServiceIdentity {
  service: CommandService;
  /** The PostgreSQL schema this service owns. */
  schema: string;
}

/**
 * The infrastructure every service shares, bound once: config, logger, Prisma, the unit of
 * work, the outbox and its relay, the inbox. Global, so a service's own module lists only
 * its ports, use cases and handlers.
 */
@Global()
@Module({})
export class ServiceRuntimeModule {
  static forService(identity: ServiceIdentity): DynamicModule {
    const providers: Provider[] = [
      { provide: SERVICE_IDENTITY, useValue: identity },
      { provide: PLATFORM_CONFIG, useFactory: () => readPlatformConfig() },
      { provide: LOGGER, useFactory: (config: PlatformConfig) => createLogger(identity.service, config.logLevel), inject: [PLATFORM_CONFIG] },
      // One registry per service instance (served on the admin port's /metrics).
      { provide: MetricsRegistry, useFactory: () => createMetricsRegistry() },
      {
        provide: PrismaClient,
        useFactory: (config: PlatformConfig) =>
          createPrismaClient({ databaseUrl: config.databaseUrl, applicationName: identity.service, poolSize: 10 }),
        inject: [PLATFORM_CONFIG],
      },
      {
        provide: PrismaTransactionHost,
        // A command's transaction never commits after its sender stopped waiting (see assertCommandDeadline).
        useFactory: (prisma: PrismaClient) => new PrismaTransactionHost(prisma, { beforeCommit: () => assertCommandDeadline() }),
        inject: [PrismaClient],
      },
      { provide: UnitOfWork, useFactory: (host: PrismaTransactionHost) => new PrismaUnitOfWork(host), inject: [PrismaTransactionHost] },
      { provide: Clock, useClass: SystemClock },
      { provide: CursorCodec, useFactory: (config: PlatformConfig) => new CursorCodec(config.cursorSecret), inject: [PLATFORM_CONFIG] },
      {
        provide: OutboxRelay,
        useFactory: (prisma: PrismaClient, config: PlatformConfig, logger: Logger) =>
          new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix: config.queuePrefix, schema: identity.schema, logger }),
        inject: [PrismaClient, PLATFORM_CONFIG, LOGGER],
      },
      {
        provide: EventOutbox,
        useFactory: (host: PrismaTransactionHost, clock: Clock, relay: OutboxRelay) =>
          new PrismaEventOutbox(host, identity.service, identity.schema, clock, () => relay.kick()),
        inject: [PrismaTransactionHost, Clock, OutboxRelay],
      },
      {
        provide: ProcessedEventLog,
        useFactory: (host: PrismaTransactionHost) => new PrismaProcessedEventLog(host, identity.schema),
        inject: [PrismaTransactionHost],
      },
    ];
    if (identity.service === WEBHOOK_ATTEMPTS_OWNER) {
      providers.push({
        provide: WebhookAttemptMetrics,
        useFactory: (registry: MetricsRegistry) => new WebhookAttemptMetrics(registry),
        inject: [MetricsRegistry],
      });
    }
    return {
      module: ServiceRuntimeModule,
      providers,
      exports: providers.map((provider) => (typeof provider === 'function' ? provider : provider.provide)),
    };
  }
}

/** Binds a service's command queue to its handlers (checked against the job contract). */
export function commandConsumerProvider<S extends CommandService>(
  service: S,
  handlers: Array<Type<AnyCommandHandler<S>>>,
): Provider[] {
  return [
    ...handlers,
    {
      provide: CommandConsumer,
      useFactory: (config: PlatformConfig, logger: Logger, ...instances: AnyCommandHandler<S>[]) =>
        new CommandConsumer(service, instances, { redisUrl: config.redisUrl, prefix: config.queuePrefix, logger }),
      inject: [PLATFORM_CONFIG, LOGGER, ...handlers],
    },
  ];
}

/** Binds a service's event queue to its subscribers (checked against EVENT_SUBSCRIBERS). */
export function eventConsumerProvider(service: CommandService, handlers: Array<Type<AnyEventHandler>>): Provider[] {
  return [
    ...handlers,
    {
      provide: EventConsumer,
      useFactory: (config: PlatformConfig, logger: Logger, unitOfWork: UnitOfWork, log: ProcessedEventLog, ...instances: AnyEventHandler[]) =>
        new EventConsumer(service, instances, unitOfWork, log, { redisUrl: config.redisUrl, prefix: config.queuePrefix, logger }),
      inject: [PLATFORM_CONFIG, LOGGER, UnitOfWork, ProcessedEventLog, ...handlers],
    },
  ];
}
