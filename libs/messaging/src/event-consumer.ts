import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import {
  deadLetterQueueName,
  EVENT_BATCH_JOB,
  eventQueueName,
  parseEvent,
  subscribedEventTypes,
  type EventBatchJobData,
  type EventEnvelope,
  type EventType,
  type ProcessedEventLog,
  type ServiceName,
  type UnitOfWork,
} from '@pfs/contracts';
import { DEFAULT_EVENT_MAX_ATTEMPTS, failSpan, runInTraceContext, runWithRequestId, startSpan, tracingEnabled, type Logger, type TraceContext } from '@pfs/platform';
import { DeadLetters } from './dead-letters';
import { buildHandlerRegistry } from './handler-registry';
import { createRedisConnection, type RedisClient } from './redis-connection';
import { EVENT_BACKOFF_TYPE, eventJobOptions, eventRetryDelay } from './event-retry';

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
  /**
   * For a handler that can read everything it decides on first (never an ordered one): reads, and
   * answers its writes, which the consumer sends with the batch's inbox rows as one statement (a
   * write-only unit). Should that statement be refused (an event handled before, a write the
   * database refuses), the batch runs again through `handle`. `null`: the event changes nothing
   * here (a fan-out with no recipient), so it is neither written nor given an inbox row; a
   * redelivery is planned again, and what it plans then is what would have been written.
   */
  plan?(event: EventEnvelope<T>): Promise<(() => Promise<void>) | null>;
}

export type AnyEventHandler = { [T in EventType]: EventHandler<T> }[EventType];

export interface EventConsumerOptions {
  redisUrl: string;
  prefix: string;
  concurrency?: number;
  logger: Logger;
  /** Attempts before an event is dead-lettered (EVENT_MAX_ATTEMPTS); a job's own lower `attempts` wins. */
  maxAttempts?: number;
}

export type EventOutcome = 'ok' | 'duplicate' | 'stale' | 'failed';
type HandledOutcome = Exclude<EventOutcome, 'failed'>;

interface PendingEvent {
  event: EventEnvelope;
  resolve: (outcome: HandledOutcome) => void;
  reject: (error: Error) => void;
}

/** Batches of one subscriber running at once; the worker's other jobs wait for the next batch. */
const MAX_BATCHES_IN_FLIGHT = 2;
/** The most events one transaction takes (the worker's concurrency bounds it too). */
const MAX_BATCH_SIZE = 32;
/**
 * Events taken from the queue at once: they wait in memory for the next batch, so enough to fill
 * both batches in flight; fewer would cap a busy consumer's batches below their size.
 */
const DEFAULT_EVENT_CONCURRENCY = MAX_BATCHES_IN_FLIGHT * MAX_BATCH_SIZE;

/**
 * The request id an event is handled and relayed under: the request that wrote it, or for an event
 * no request caused, one of its own that the relay and every subscriber share.
 */
export const eventRequestId = (event: Pick<EventEnvelope, 'id' | 'requestId'>): string => event.requestId ?? `evt-${event.id}`;
const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** An event as delivered: a job of its own, or one event of a job of several (with that job's attempts). */
type DeliveredEvent = Pick<Job, 'id' | 'name' | 'data' | 'attemptsMade' | 'finishedOn' | 'queueName'>;

/** One event of a job of several, named like the job it would have had alone (its id and type). */
function eventJobOf(job: Job, data: unknown, index: number): DeliveredEvent & { id: string } {
  const { id, type } = (data ?? {}) as { id?: unknown; type?: unknown };
  return {
    id: typeof id === 'string' ? id : `${String(job.id)}.${index}`,
    name: typeof type === 'string' ? type : job.name,
    data,
    attemptsMade: job.attemptsMade,
    finishedOn: undefined,
    queueName: job.queueName,
  };
}

/** An event the contract refuses: dead-lettered at once, never retried. */
class RefusedEventError extends Error {}

export interface EventOutcomeListener {
  (outcome: EventOutcome, event: string, durationMs: number): void;
}

/**
 * Thrown once the event is in the dead-letter queue: unrecoverable, so BullMQ stops retrying
 * (also a job of the previous release, added with more attempts than this consumer allows).
 */
class DeadLetteredError extends UnrecoverableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message);
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/**
 * Consumes a subscriber's event queue at least once. The event id goes into the subscriber's
 * `processed_events` in the same transaction as the handler's effect, so a redelivery is a
 * no-op. A job carries one event, or several (EVENT_BATCH_JOB, the relay's for events that went
 * out together), each handled as if it had come alone. Events taken while others are being
 * handled are handled together, in one transaction (falling back to one transaction each when it
 * fails). A failing handler rethrows: BullMQ retries with backoff, up to the bounded attempts;
 * the last failure, or an event the contract refuses, goes to the subscriber's dead-letter queue
 * (`<service>-events-dead`) with an error log line and a metric.
 */
export class EventConsumer {
  private readonly registry: Map<string, AnyEventHandler>;
  // Opened by start(), so a module that fails to boot leaves no connection behind.
  private connection?: RedisClient;
  private worker?: Worker;
  private deadLetters?: DeadLetters;
  /** Adds the events of a job of several that failed back as jobs of their own (opened on first use). */
  private retries?: Queue;
  private closing?: Promise<void>;
  private readonly waiting: PendingEvent[] = [];
  /** Each event's consumer span while it is handled (tracing on only). */
  private readonly spans = new WeakMap<EventEnvelope, TraceContext>();
  private batchesInFlight = 0;
  private batchStartQueued = false;
  onOutcome?: EventOutcomeListener;
  /** Called once per event put into the dead-letter queue, with its type (the job's name). */
  onDeadLettered?: (event: string) => void;

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

  /** The subscribing service (the label of its dead-letter metric). */
  get subscriber(): ServiceName {
    return this.service;
  }

  get hasSubscriptions(): boolean {
    return this.registry.size > 0;
  }

  /** Starts consuming; resolves once the worker's connections are up. */
  async start(): Promise<void> {
    if (this.closing) throw new Error(`${eventQueueName(this.service)} consumer is closed`);
    if (!this.hasSubscriptions || this.worker) return;
    this.connection = createRedisConnection(this.options.redisUrl, `${this.service}-events-worker`);
    // On the worker's connection, which waits for Redis rather than failing: a dead letter that
    // cannot be written leaves the job unfinished, to be taken again, never lost.
    this.deadLetters = new DeadLetters(this.connection, { prefix: this.options.prefix, maxAttempts: this.maxAttempts });
    this.worker = new Worker(eventQueueName(this.service), (job: Job) => this.process(job), {
      connection: this.connection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency ?? DEFAULT_EVENT_CONCURRENCY,
      settings: { backoffStrategy: eventRetryDelay },
    });
    this.worker.on('error', (error) => this.options.logger.error({ err: error.message }, 'event worker error'));
    this.worker.on('failed', (job, error) => {
      // process() dead-letters its own last failure. BullMQ fails some jobs without calling it
      // (one that stalled too often, e.g. a process crashing on it): those are caught here.
      if (!job?.finishedOn || error instanceof DeadLetteredError) return;
      this.deadLetter(job, error.message).catch((failure: unknown) =>
        this.options.logger.error({ subscriber: this.service, eventId: job.id, err: (failure as Error).message }, 'event could not be dead-lettered'),
      );
    });
    await this.worker.waitUntilReady();
  }

  /** Stops taking jobs and waits for the active ones to finish (once, however often called). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.worker?.close();
      await this.retries?.close();
      await this.deadLetters?.close();
      this.connection?.disconnect();
    })();
    return this.closing;
  }

  private get maxAttempts(): number {
    return this.options.maxAttempts ?? DEFAULT_EVENT_MAX_ATTEMPTS;
  }

  /**
   * Exposed for tests: processes one envelope exactly as a delivered job would be. The inbox row
   * comes first, so a stale event is also recorded as handled and a redelivery is a duplicate.
   */
  async handle(event: EventEnvelope): Promise<HandledOutcome> {
    const handler = this.handlerOf(event);
    return this.unitOfWork.run(() => this.apply(event, handler));
  }

  /**
   * Exposed for tests: processes several envelopes as one batch of delivered jobs is, in one
   * transaction. When that transaction fails, each event runs again in a transaction of its own,
   * so one bad event cannot hold the rest back: each gets its own outcome or error.
   */
  async handleAll(events: readonly EventEnvelope[]): Promise<Array<HandledOutcome | Error>> {
    if (await this.handledAsPlanned(events)) return events.map(() => 'ok');
    const one = (event: EventEnvelope) => this.within(event, () => this.handle(event).catch(asError));
    if (events.length === 1) return [await one(events[0] as EventEnvelope)];
    try {
      return await this.unitOfWork.run(async () => {
        // The batch's inbox rows in one statement; a repeat within the batch is a duplicate too.
        const fresh = new Set(await this.processed.markAllProcessed(events.map((event) => event.id)));
        const outcomes: HandledOutcome[] = [];
        // One after another: the events share the transaction's connection.
        for (const event of events) {
          const first = fresh.delete(event.id);
          outcomes.push(await this.within(event, () => this.apply(event, this.handlerOf(event), first)));
        }
        return outcomes;
      });
    } catch {
      return Promise.all(events.map(one));
    }
  }

  /**
   * The fast path for handlers that plan: each event's reads, then the batch's inbox rows and every
   * event's writes as one statement, with no transaction held while reading. False when a handler
   * cannot plan or anything was refused: nothing was written then, and the batch runs the usual way.
   */
  private async handledAsPlanned(events: readonly EventEnvelope[]): Promise<boolean> {
    try {
      // An event no handler takes fails here too, and then alone on the usual way.
      const handlers = events.map((event) => this.handlerOf(event));
      if (handlers.some((handler) => !handler.plan || handler.ordered)) return false;
      // The reads of every event at once, outside any transaction: reads by key share a statement.
      const planned = await Promise.all(
        events.map(async (event, index) => {
          const handler = handlers[index] as EventHandler & Required<Pick<EventHandler, 'plan'>>;
          const write = await this.within(event, () => handler.plan(event));
          // The writes run later, in the batch's statement, in the batch's order: each in its own event's context too.
          return write && { id: event.id, write: () => this.within(event, write) };
        }),
      );
      const writes = planned.filter((plan) => plan !== null);
      // Events that change nothing cost no statement: a batch of only those is done once read.
      if (!writes.length) return true;
      await this.unitOfWork.write(async () => {
        await this.processed.claimAll(writes.map((plan) => plan.id));
        for (const plan of writes) await plan.write();
      });
      return true;
    } catch (error) {
      this.options.logger.debug({ err: asError(error).message, events: events.length }, 'planned event batch refused: handled the usual way');
      return false;
    }
  }

  /**
   * Runs part of an event's handling under its request id and, when tracing, its own span: a
   * batch handles events taken by different jobs, each of which started a span of its own.
   */
  private within<T>(event: EventEnvelope, work: () => T): T {
    return runWithRequestId(eventRequestId(event), () => runInTraceContext(this.spans.get(event), work));
  }

  private handlerOf(event: EventEnvelope): EventHandler {
    const handler = this.registry.get(event.type) as EventHandler | undefined;
    if (!handler) throw new Error(`${this.service} does not subscribe to ${event.type}`);
    return handler;
  }

  /** `first`: whether the batch's inbox statement saw the event for the first time (else it is marked here). */
  private async apply(event: EventEnvelope, handler: EventHandler, first?: boolean): Promise<HandledOutcome> {
    if (!(first ?? (await this.processed.markProcessed(event.id)))) return 'duplicate';
    if (handler.ordered && !(await this.processed.advanceSequence(event))) return 'stale';
    await handler.handle(event);
    return 'ok';
  }

  /**
   * A delivered event joins the next batch. While fewer than MAX_BATCHES_IN_FLIGHT batches run, a
   * batch starts once the events delivered in the same turn have joined it (the events of a job of
   * several all do; one event alone waits for nothing else); while they run, the events the worker
   * takes meanwhile gather into the next one, so a busy consumer commits many per transaction.
   */
  private inBatch(event: EventEnvelope): Promise<HandledOutcome> {
    return new Promise<HandledOutcome>((resolve, reject) => {
      this.waiting.push({ event, resolve, reject });
      if (this.batchStartQueued) return;
      this.batchStartQueued = true;
      queueMicrotask(() => {
        this.batchStartQueued = false;
        this.startBatches();
      });
    });
  }

  private startBatches(): void {
    while (this.waiting.length && this.batchesInFlight < MAX_BATCHES_IN_FLIGHT) {
      const batch = this.waiting.splice(0, MAX_BATCH_SIZE);
      this.batchesInFlight += 1;
      void this.handleAll(batch.map((pending) => pending.event))
        .then((results) =>
          results.forEach((result, index) => {
            const pending = batch[index] as PendingEvent;
            if (result instanceof Error) pending.reject(result);
            else pending.resolve(result);
          }),
        )
        .finally(() => {
          this.batchesInFlight -= 1;
          this.startBatches();
        });
    }
  }

  private async process(job: Job): Promise<void> {
    const delivered = job as DeliveredEvent;
    try {
      if (job.name === EVENT_BATCH_JOB) await this.processBatch(job);
      else await this.consume(job.data, delivered);
    } catch (error) {
      if (error instanceof RefusedEventError) {
        await this.deadLetter(delivered, error.message);
        throw new DeadLetteredError(error.message);
      }
      if (!this.isLastAttempt(job)) throw error;
      // Written before the job fails for good: a crash in between re-runs the last attempt.
      const message = (error as Error).message;
      await this.deadLetter(delivered, message);
      throw new DeadLetteredError(message, { cause: error });
    }
  }

  /**
   * A job of several events: each is handled as if it had come alone, in the same batches. One
   * that fails goes on as a job of its own, under its event id, with the retries and the dead
   * letter any event has, so it holds back neither the others nor this job. Should that hand-over
   * fail, the whole job runs again: the events already handled are duplicates then.
   */
  private async processBatch(job: Job): Promise<void> {
    const events: unknown = (job.data as Partial<EventBatchJobData> | null)?.events;
    // Not a job the relay writes: refused whole, as an event the contract refuses is, rather than completed doing nothing.
    if (!Array.isArray(events)) throw this.refused(job, `${EVENT_BATCH_JOB} job does not match the contract: it has no list of events`);
    const failed: Array<{ delivered: DeliveredEvent & { id: string }; error: unknown }> = [];
    await Promise.all(
      events.map(async (data, index) => {
        const delivered = eventJobOf(job, data, index);
        await this.consume(data, delivered).catch((error: unknown) => failed.push({ delivered, error }));
      }),
    );
    for (const { delivered, error } of failed) {
      if (error instanceof RefusedEventError || this.isLastAttempt(job)) await this.deadLetter(delivered, (error as Error).message);
      else await this.retryAlone(delivered);
    }
  }

  /** Puts an event of a job of several back on the queue as a job of its own, due after the first backoff. */
  private async retryAlone(delivered: DeliveredEvent & { id: string }): Promise<void> {
    if (!this.connection) throw new Error(`${eventQueueName(this.service)} consumer is not started`);
    this.retries ??= new Queue(eventQueueName(this.service), { connection: this.connection, prefix: this.options.prefix });
    await this.retries.add(delivered.name, delivered.data, { ...eventJobOptions(delivered.id, this.maxAttempts), delay: eventRetryDelay(1, EVENT_BACKOFF_TYPE) });
  }

  /**
   * Handles one delivered event in the next batch, with its span, outcome metric and log line.
   * Throws RefusedEventError for an event the contract refuses, else the handler's error.
   */
  private async consume(data: unknown, delivered: DeliveredEvent): Promise<void> {
    const parsed = parseEvent(data);
    // A publisher built against another version of the contract: fail loudly, never guess, and
    // keep the event for an operator (a consumer that understands it can replay it).
    if (!parsed.ok) throw this.refused(delivered, `event does not match the contract: ${parsed.problem}`);
    const event = parsed.event as EventEnvelope;
    const started = Date.now();
    const span = tracingEnabled()
      ? startSpan(`${event.type} process`, {
          kind: 'consumer',
          parent: event.trace,
          requireParent: true,
          attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': delivered.queueName, 'messaging.message.id': event.id, 'pfs.request_id': eventRequestId(event) },
        })
      : undefined;
    if (span) this.spans.set(event, span.context);
    await this.within(event, async () => {
      try {
        const outcome = await this.inBatch(event);
        this.onOutcome?.(outcome, event.type, Date.now() - started);
        span?.span.setAttribute('pfs.outcome', outcome);
        this.options.logger.info(
          { event: event.type, eventId: event.id, aggregateId: event.aggregateId, sequence: event.sequence, outcome },
          outcome === 'stale' ? 'event skipped: a newer event of its aggregate was applied' : 'event handled',
        );
      } catch (error) {
        this.onOutcome?.('failed', event.type, Date.now() - started);
        if (span) failSpan(span.span, error);
        this.options.logger.error({ event: event.type, eventId: event.id, attempt: delivered.attemptsMade + 1, err: (error as Error).message }, 'event handler failed');
        throw error;
      } finally {
        span?.span.end();
      }
    });
  }

  /** Counts and logs a job the contract refuses; the error, thrown, dead-letters it at once. */
  private refused(delivered: Pick<DeliveredEvent, 'id' | 'name'>, reason: string): RefusedEventError {
    this.onOutcome?.('failed', delivered.name, 0);
    this.options.logger.error({ jobId: delivered.id, problem: reason }, 'event refused: it does not match the contract');
    return new RefusedEventError(reason);
  }

  private isLastAttempt(job: Job): boolean {
    return job.attemptsMade + 1 >= Math.min(job.opts.attempts ?? 1, this.maxAttempts);
  }

  private async deadLetter(job: DeliveredEvent, reason: string): Promise<void> {
    if (!this.deadLetters) throw new Error(`${eventQueueName(this.service)} consumer is not started`);
    const attempts = job.attemptsMade + (job.finishedOn ? 0 : 1);
    await this.deadLetters.add(this.service, job, { reason, attempts, failedAt: new Date().toISOString() });
    this.onDeadLettered?.(String(job.name));
    // Ids and type only: the payload can carry personal data.
    this.options.logger.error(
      { subscriber: this.service, event: job.name, eventId: job.id, attempts, err: reason, deadLetterQueue: deadLetterQueueName(this.service) },
      'event dead-lettered: it is kept for an operator to replay (pnpm cli dead-letters:list)',
    );
  }
}
