import { type DynamicModule, Global, Module, type OnApplicationShutdown, type Provider, type Type } from '@nestjs/common';
import {
  Clock,
  CryptoRandomSource,
  CursorCodec,
  EventOutbox,
  IdGenerator,
  ProcessedEventLog,
  RandomIdGenerator,
  RandomSource,
  SystemClock,
  UnitOfWork,
  type CommandService,
} from '@pfs/contracts';
import { createPrismaClient, PrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import {
  createLogger,
  standardErrorDestination,
  createMetricsRegistry,
  MetricsRegistry,
  readPlatformConfig,
  SecretBox,
  WebhookAttemptMetrics,
  type Logger,
  type PlatformConfig,
} from '@pfs/platform';
import { CommandBus } from './command-bus';
import { CommandConsumer, type AnyCommandHandler } from './command-consumer';
import type { CommandHandlerTable } from './command-handlers';
import { CommandLog } from './command-log';
import { PrismaCommandLog } from './prisma-command-log';
import { SweepLease } from './sweep-lease';
import { PingUseCase } from './ping.use-case';
import { SERVICE_IDENTITY, type ServiceIdentity } from './service-identity';
import { EventConsumer, type AnyEventHandler } from './event-consumer';
import { OutboxRelay } from './outbox-relay';
import { PrismaEventOutbox } from './prisma-event-outbox';
import { assertCommandDeadline, commandTransactionLimits } from './messaging-errors';
import { PrismaProcessedEventLog } from './prisma-processed-event-log';

export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
export const LOGGER = Symbol('LOGGER');

/** The service that makes webhook delivery attempts, and so exports their counter. */
const WEBHOOK_ATTEMPTS_OWNER: CommandService = 'webhook-delivery-worker';

/**
 * PostgreSQL connections each service opens by default (DATABASE_POOL_SIZE overrides it for one
 * process): the ledger, on every money path, gets the most; the six together stay within 40, so one
 * replica of everything fits a small server's connection limit beside the operator's own sessions.
 */
export const DEFAULT_POOL_SIZES: Readonly<Record<CommandService, number>> = {
  organization: 6,
  ledger: 10,
  quote: 6,
  beneficiary: 6,
  'webhook-delivery': 6,
  'webhook-delivery-worker': 6,
};

/** The PostgreSQL connections this process of `service` opens. */
export function poolSizeOf(service: CommandService, config: PlatformConfig): number {
  return config.databasePoolSize ?? DEFAULT_POOL_SIZES[service];
}

/**
 * How many jobs each command lane of a service works on at once, by its pool: a command holds a
 * connection only while its statements run (it asks other services before any unit of work, and
 * a write-only unit is one statement), so a lane takes twice as many jobs as there are
 * connections, which keeps the pool busy while half of them wait on another service; more would
 * only queue for a connection. (Events hold at most two connections: a consumer runs two batch
 * transactions at a time.)
 */
export function commandLaneConcurrency(service: CommandService, config: PlatformConfig): number {
  return config.commandConcurrency ?? 2 * poolSizeOf(service, config);
}

/**
 * The infrastructure every service shares, bound once: config, logger, Prisma, the unit of
 * work, the outbox and its relay, the inbox. Global, so a service's own module lists only
 * its ports, use cases and handlers.
 */
@Global()
@Module({})
export class ServiceRuntimeModule {
  /** `logTo: 'stderr'` for a command-line tool whose standard output is its answer (the operator CLI). */
  static forService(identity: ServiceIdentity, options: { logTo?: 'stdout' | 'stderr' } = {}): DynamicModule {
    const providers: Provider[] = [
      { provide: SERVICE_IDENTITY, useValue: identity },
      { provide: PLATFORM_CONFIG, useFactory: () => readPlatformConfig() },
      {
        provide: LOGGER,
        useFactory: (config: PlatformConfig) =>
          createLogger(identity.service, config.logLevel, options.logTo === 'stderr' ? standardErrorDestination() : undefined),
        inject: [PLATFORM_CONFIG],
      },
      // One registry per service instance (served on the admin port's /metrics).
      { provide: MetricsRegistry, useFactory: () => createMetricsRegistry() },
      {
        provide: PrismaClient,
        useFactory: (config: PlatformConfig) =>
          createPrismaClient({ databaseUrl: config.databaseUrl, applicationName: identity.service, poolSize: poolSizeOf(identity.service, config) }),
        inject: [PLATFORM_CONFIG],
      },
      {
        provide: PrismaTransactionHost,
        // A command's transaction never commits after its sender stopped waiting (see assertCommandDeadline).
        useFactory: (prisma: PrismaClient) => new PrismaTransactionHost(prisma, { beforeCommit: () => assertCommandDeadline(), limits: () => commandTransactionLimits() }),
        inject: [PrismaClient],
      },
      { provide: UnitOfWork, useFactory: (host: PrismaTransactionHost) => new PrismaUnitOfWork(host), inject: [PrismaTransactionHost] },
      // Time, ids and randomness come through ports in every service, so tests can pin them.
      { provide: Clock, useClass: SystemClock },
      { provide: IdGenerator, useClass: RandomIdGenerator },
      { provide: RandomSource, useClass: CryptoRandomSource },
      { provide: CursorCodec, useFactory: (config: PlatformConfig) => new CursorCodec(config.cursorSecret), inject: [PLATFORM_CONFIG] },
      {
        provide: OutboxRelay,
        useFactory: (prisma: PrismaClient, config: PlatformConfig, logger: Logger) =>
          new OutboxRelay(prisma, {
            redisUrl: config.redisUrl,
            prefix: config.queuePrefix,
            schema: identity.schema,
            logger,
            maxAttempts: config.eventMaxAttempts,
          }),
        inject: [PrismaClient, PLATFORM_CONFIG, LOGGER],
      },
      {
        provide: EventOutbox,
        useFactory: (host: PrismaTransactionHost, clock: Clock, relay: OutboxRelay) =>
          new PrismaEventOutbox(host, identity.service, identity.schema, clock, (event) => relay.handOff(event)),
        inject: [PrismaTransactionHost, Clock, OutboxRelay],
      },
      {
        provide: CommandLog,
        useFactory: (host: PrismaTransactionHost, config: PlatformConfig) =>
          new PrismaCommandLog(host, identity.schema, SecretBox.derive(config.apiKeyPepper, 'command log results')),
        inject: [PrismaTransactionHost, PLATFORM_CONFIG],
      },
      PingUseCase,
      {
        provide: SweepLease,
        useFactory: (config: PlatformConfig) => new SweepLease({ redisUrl: config.redisUrl, prefix: config.queuePrefix, service: identity.service }),
        inject: [PLATFORM_CONFIG],
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

/**
 * Binds a service's command queue to its use cases, one per command (the table is checked
 * against the contract when compiled, and again by the consumer when it starts).
 */
export function commandConsumerProvider<S extends CommandService>(service: S, table: CommandHandlerTable<S>): Provider[] {
  const entries = Object.entries(table) as Array<[string, Type<{ execute(payload: unknown): Promise<unknown> }>]>;
  const useCases = [...new Set(entries.map(([, useCase]) => useCase))];
  return [
    ...useCases.filter((useCase) => useCase !== PingUseCase),
    {
      provide: CommandConsumer,
      useFactory: (config: PlatformConfig, logger: Logger, commandLog: CommandLog, ...instances: Array<{ execute(payload: unknown): Promise<unknown> }>) => {
        const handlers = entries.map(([command, useCase]) => {
          const instance = instances[useCases.indexOf(useCase)];
          return { command, execute: (payload: unknown) => instance.execute(payload) } as AnyCommandHandler<S>;
        });
        return new CommandConsumer(service, handlers, {
          redisUrl: config.redisUrl,
          prefix: config.queuePrefix,
          logger,
          commandLog,
          dropFirstReplyOf: testHookDropFirstReply(config),
          concurrency: commandLaneConcurrency(service, config),
        });
      },
      inject: [PLATFORM_CONFIG, LOGGER, CommandLog, ...useCases],
    },
  ];
}

/** `PFS_TEST_DROP_FIRST_REPLY=organizations.create,…`: end-to-end tests lose a reply on purpose. Never in production. */
function testHookDropFirstReply(config: PlatformConfig): string[] {
  const names = (process.env.PFS_TEST_DROP_FIRST_REPLY ?? '').split(',').filter(Boolean);
  if (names.length && config.serviceEnv === 'production') throw new Error('PFS_TEST_DROP_FIRST_REPLY is a test hook: refused in production');
  return names;
}

/** Binds a service's event queue to its subscribers (checked against EVENT_SUBSCRIBERS). */
export function eventConsumerProvider(service: CommandService, handlers: Array<Type<AnyEventHandler>>): Provider[] {
  return [
    ...handlers,
    {
      provide: EventConsumer,
      useFactory: (config: PlatformConfig, logger: Logger, unitOfWork: UnitOfWork, log: ProcessedEventLog, ...instances: AnyEventHandler[]) =>
        new EventConsumer(service, instances, unitOfWork, log, {
          redisUrl: config.redisUrl,
          prefix: config.queuePrefix,
          logger,
          maxAttempts: config.eventMaxAttempts,
        }),
      inject: [PLATFORM_CONFIG, LOGGER, UnitOfWork, ProcessedEventLog, ...handlers],
    },
  ];
}

/** Closes a service's outgoing command bus when the service stops (after its consumers have drained). */
class CommandBusCloser implements OnApplicationShutdown {
  constructor(private readonly bus: CommandBus) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}

/**
 * For a service that asks another service (over its command queue) while it works: one
 * CommandBus, started lazily on the first send and closed with the service.
 */
export function commandBusProvider(): Provider[] {
  return [
    {
      provide: CommandBus,
      useFactory: (config: PlatformConfig, identity: ServiceIdentity) =>
        new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: config.commandTimeoutMs, name: `${identity.service}-bus` }),
      inject: [PLATFORM_CONFIG, SERVICE_IDENTITY],
    },
    { provide: CommandBusCloser, useFactory: (bus: CommandBus) => new CommandBusCloser(bus), inject: [CommandBus] },
  ];
}
