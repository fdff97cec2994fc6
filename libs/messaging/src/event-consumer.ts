import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  eventQueueName,
  parseEvent,
  subscribedEventTypes,
  type EventEnvelope,
  type EventType,
  type ProcessedEventLog,
  type ServiceName,
  type UnitOfWork,
} from '@pfs/contracts';
import { runWithRequestId, type Logger } from '@pfs/platform';
import { buildHandlerRegistry } from './handler-registry';
import { createRedisConnection } from './redis-connection';
import { eventRetryDelay } from './event-retry';

/** Handles one event type for one subscriber. Runs inside the unit of work of its inbox row. */
export interface EventHandler<T extends EventType = EventType> {
  readonly event: T;
  /**
   * For a handler whose state the newest event of an aggregate replaces (a status, a snapshot):
   * the consumer records the last sequence it applied per publisher and aggregate in the same
   * transaction, and skips an event that is not newer (outcome 'stale') instead of letting an
   * older event that arrives late overwrite a newer one. Leave it off where every event adds
   * something of its own (a created aggregate, an enabled asset): skipping would lose it.
   */
  readonly ordered?: boolean;
  handle(event: EventEnvelope<T>): Promise<void>;
}

export type AnyEventHandler = { [T in EventType]: EventHandler<T> }[EventType];

export interface EventConsumerOptions {
  redisUrl: string;
  prefix: string;
  concurrency?: number;
  logger: Logger;
}

export type EventOutcome = 'ok' | 'duplicate' | 'stale' | 'failed';

export interface EventOutcomeListener {
  (outcome: EventOutcome, event: string, durationMs: number): void;
}

/**
 * Consumes a subscriber's event queue at least once. The event id goes into the subscriber's
 * `processed_events` in the same transaction as the handler's effect, so a redelivery is a
 * no-op. A failing handler rethrows: BullMQ retries with backoff.
 */
export class EventConsumer {
  private readonly registry: Map<string, AnyEventHandler>;
  // Opened by start(), so a module that fails to boot leaves no connection behind.
  private connection?: Redis;
  private worker?: Worker;
  private closing?: Promise<void>;
  onOutcome?: EventOutcomeListener;

  constructor(
    private readonly service: ServiceName,
    handlers: readonly AnyEventHandler[],
    private readonly unitOfWork: UnitOfWork,
    private readonly processed: ProcessedEventLog,
    private readonly options: EventConsumerOptions,
  ) {
    this.registry = buildHandlerRegistry(eventQueueName(service), subscribedEventTypes(service), handlers, (h) => h.event);
  }

  /** The BullMQ queue this consumer takes jobs from. */
  get queueName(): string {
    return eventQueueName(this.service);
  }

  get hasSubscriptions(): boolean {
    return this.registry.size > 0;
  }

  /** Starts consuming; resolves once the worker's connections are up. */
  async start(): Promise<void> {
    if (this.closing) throw new Error(`${eventQueueName(this.service)} consumer is closed`);
    if (!this.hasSubscriptions || this.worker) return;
    this.connection = createRedisConnection(this.options.redisUrl, `${this.service}-events-worker`);
    this.worker = new Worker(eventQueueName(this.service), (job: Job) => this.process(job), {
      connection: this.connection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency ?? 8,
      settings: { backoffStrategy: eventRetryDelay },
    });
    this.worker.on('error', (error) => this.options.logger.error({ err: error.message }, 'event worker error'));
    await this.worker.waitUntilReady();
  }

  /** Stops taking jobs and waits for the active ones to finish (once, however often called). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.worker?.close();
      this.connection?.disconnect();
    })();
    return this.closing;
  }

  /**
   * Exposed for tests: processes one envelope exactly as a delivered job would be. The inbox row
   * comes first, so a stale event is also recorded as handled and a redelivery is a duplicate.
   */
  async handle(event: EventEnvelope): Promise<'ok' | 'duplicate' | 'stale'> {
    const handler = this.registry.get(event.type) as EventHandler | undefined;
    if (!handler) throw new Error(`${this.service} does not subscribe to ${event.type}`);
    return this.unitOfWork.run(async () => {
      if (!(await this.processed.markProcessed(event.id))) return 'duplicate' as const;
      if (handler.ordered && !(await this.processed.advanceSequence(event))) return 'stale' as const;
      await handler.handle(event);
      return 'ok' as const;
    });
  }

  private async process(job: Job): Promise<void> {
    const parsed = parseEvent(job.data);
    if (!parsed.ok) {
      // A publisher built against another version of the contract: fail loudly, never guess.
      this.onOutcome?.('failed', String(job.name), 0);
      this.options.logger.error({ jobId: job.id, problem: parsed.problem }, 'event refused: it does not match the contract');
      throw new UnrecoverableError(`event does not match the contract: ${parsed.problem}`);
    }
    const event = parsed.event as EventEnvelope;
    const started = Date.now();
    await runWithRequestId(event.requestId ?? `evt-${event.id}`, async () => {
      try {
        const outcome = await this.handle(event);
        this.onOutcome?.(outcome, event.type, Date.now() - started);
        this.options.logger.info(
          { event: event.type, eventId: event.id, aggregateId: event.aggregateId, sequence: event.sequence, outcome },
          outcome === 'stale' ? 'event skipped: a newer event of its aggregate was applied' : 'event handled',
        );
      } catch (error) {
        this.onOutcome?.('failed', event.type, Date.now() - started);
        this.options.logger.error({ event: event.type, eventId: event.id, err: (error as Error).message }, 'event handler failed');
        throw error;
      }
    });
  }
}
