import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { WEBHOOK_DELIVERY_QUEUE } from '@pfs/contracts';
import { CommandBus, createProducerConnection, LOGGER, PLATFORM_CONFIG, SweepLease, type ServiceIdentity } from '@pfs/messaging';
import { PrismaTransactionHost } from '@pfs/persistence';
import { WebhookAttemptMetrics, webhookDestinationRules, webhookHostResolver, webhookSecretBox, type Logger, type PlatformConfig } from '@pfs/platform';
import { Queue } from 'bullmq';
import { QueueEndpointDirectory } from './adapters/endpoints/queue-endpoint-directory';
import { UndiciWebhookSender } from './adapters/http/undici-webhook.sender';
import { BullmqDeliveryQueue } from './adapters/messaging/bullmq-delivery.queue';
import { DeliveryQueueWorker } from './adapters/messaging/delivery-queue.worker';
import { DeliverySweeper } from './adapters/messaging/delivery-sweeper';
import { PrismaDeliveryRepository } from './adapters/persistence/prisma-delivery.repository';
import { DeliveryQueue } from './application/ports/delivery-queue';
import { DeliverySettings } from './application/ports/delivery-settings';
import { DeliveryRepository } from './application/ports/delivery.repository';
import { EndpointDirectory } from './application/ports/endpoint-directory';
import { WebhookSender } from './application/ports/webhook-sender';
import { AttemptDeliveryUseCase } from './application/use-cases/attempt-delivery/attempt-delivery.use-case';
import { RecordMessageUseCase } from './application/use-cases/record-message/record-message.use-case';
import { SweepDeliveriesUseCase } from './application/use-cases/sweep-deliveries/sweep-deliveries.use-case';
import { ATTEMPT_TIMEOUT_MS, EnvDeliverySettings } from './webhook-delivery-worker.settings';

export const WEBHOOK_DELIVERY_WORKER_SERVICE: ServiceIdentity = { service: 'webhook-delivery-worker', schema: 'delivery' };

const DELIVERY_QUEUE_PRODUCER = Symbol('DELIVERY_QUEUE_PRODUCER');

/**
 * Starts the attempts and the sweeper once the module is up (first attempts recorded here are
 * made by this process's worker from then on), and stops them (active attempts finish) before
 * the connections close.
 */
@Injectable()
export class DeliveryRuntime implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly worker: DeliveryQueueWorker,
    private readonly queue: BullmqDeliveryQueue,
    private readonly sweeper: DeliverySweeper,
    @Inject(DELIVERY_QUEUE_PRODUCER) private readonly producer: Queue,
    private readonly sender: WebhookSender,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start();
    this.queue.attemptInProcess(this.worker);
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    this.queue.attemptInProcess(undefined);
    await this.worker.close();
    await this.producer.close();
    // The Queue was given its own ioredis connection, which BullMQ treats as shared and leaves open on close().
    await this.producer.disconnect();
    if (this.sender instanceof UndiciWebhookSender) await this.sender.close();
  }
}

/** Ports bound to adapters, the use cases, and the attempt queue's worker and sweeper. */
export const WEBHOOK_DELIVERY_WORKER_PROVIDERS: Provider[] = [
  { provide: EnvDeliverySettings, useFactory: () => new EnvDeliverySettings() },
  { provide: DeliverySettings, useExisting: EnvDeliverySettings },
  { provide: DeliveryRepository, useClass: PrismaDeliveryRepository },
  {
    provide: EndpointDirectory,
    useFactory: (bus: CommandBus, config: PlatformConfig, settings: EnvDeliverySettings) =>
      new QueueEndpointDirectory(bus, webhookSecretBox(config), { cacheMs: settings.endpointCacheMs }),
    inject: [CommandBus, PLATFORM_CONFIG, EnvDeliverySettings],
  },
  {
    provide: WebhookSender,
    useFactory: (config: PlatformConfig) =>
      new UndiciWebhookSender({ rules: webhookDestinationRules(config.serviceEnv), resolve: webhookHostResolver(), timeoutMs: ATTEMPT_TIMEOUT_MS }),
    inject: [PLATFORM_CONFIG],
  },
  {
    provide: DELIVERY_QUEUE_PRODUCER,
    useFactory: (config: PlatformConfig) =>
      new Queue(WEBHOOK_DELIVERY_QUEUE, { connection: createProducerConnection(config.redisUrl, 'webhook-deliveries-producer'), prefix: config.queuePrefix }),
    inject: [PLATFORM_CONFIG],
  },
  {
    provide: BullmqDeliveryQueue,
    useFactory: (host: PrismaTransactionHost, queue: Queue, logger: Logger) => new BullmqDeliveryQueue(host, queue, logger),
    inject: [PrismaTransactionHost, DELIVERY_QUEUE_PRODUCER, LOGGER],
  },
  { provide: DeliveryQueue, useExisting: BullmqDeliveryQueue },
  AttemptDeliveryUseCase,
  RecordMessageUseCase,
  SweepDeliveriesUseCase,
  {
    provide: DeliveryQueueWorker,
    useFactory: (attempt: AttemptDeliveryUseCase, config: PlatformConfig, settings: EnvDeliverySettings, logger: Logger, metrics: WebhookAttemptMetrics) =>
      new DeliveryQueueWorker(attempt, { redisUrl: config.redisUrl, prefix: config.queuePrefix, concurrency: settings.concurrency, perEndpoint: settings.perEndpoint, slotLeaseMs: settings.leaseMs }, logger, metrics),
    inject: [AttemptDeliveryUseCase, PLATFORM_CONFIG, EnvDeliverySettings, LOGGER, WebhookAttemptMetrics],
  },
  {
    provide: DeliverySweeper,
    useFactory: (sweep: SweepDeliveriesUseCase, settings: EnvDeliverySettings, logger: Logger, lease: SweepLease) => new DeliverySweeper(sweep, settings.sweepIntervalMs, logger, lease),
    inject: [SweepDeliveriesUseCase, EnvDeliverySettings, LOGGER, SweepLease],
  },
  DeliveryRuntime,
];
