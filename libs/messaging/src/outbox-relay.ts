import { Queue } from 'bullmq';
import { EVENT_BATCH_JOB, EVENT_SUBSCRIBERS, eventQueueName, type DomainEvent, type EventBatchJobData, type ServiceName } from '@pfs/contracts';
import { Prisma, sendOnDriver, type PrismaClient } from '@pfs/persistence';
import {
  currentTraceCarrier,
  DEFAULT_EVENT_MAX_ATTEMPTS,
  failSpan,
  runInTraceContext,
  runWithRequestId,
  startSpan,
  tracingEnabled,
  type Logger,
  type OutboxBacklog,
  type Span,
} from '@pfs/platform';
import { quoteSchema } from './prisma-event-outbox';
import { createProducerConnection, type RedisClient } from './redis-connection';
import { eventBatchJobOptions, eventJobOptions } from './event-retry';
import { addJobs, chunks } from './queued-jobs';
import { eventRequestId } from './event-consumer';

export interface OutboxRelayOptions {
  redisUrl: string;
  prefix: string;
  schema: string;
  logger: Logger;
  pollIntervalMs?: number;
  /**
   * How long an event must have been in the outbox before the poll takes it (default 500 ms).
   * Younger ones are its writer's hand-off to publish: a poll taking them too would send them
   * twice, in jobs other than the hand-off's, which BullMQ would not recognize as repeats.
   */
  pollGraceMs?: number;
  batchSize?: number;
  /** Attempts per event job before its subscriber dead-letters it (EVENT_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** The least time between the starts of two hand-offs (HAND_OFF_LINGER_MS). */
  handOffLingerMs?: number;
  /** The same after a hand-off that carried many events (BUSY_HAND_OFF_LINGER_MS). */
  busyHandOffLingerMs?: number;
  /** How long handed-off events wait to be marked published together (MARK_PUBLISHED_AFTER_MS). */
  markPublishedAfterMs?: number;
}

/** Hand-offs publishing at once (see `scheduleFlush`). */
const HAND_OFFS_IN_FLIGHT = 1;
/** The least time between the starts of two hand-offs (see `scheduleFlush`). */
export const HAND_OFF_LINGER_MS = 20;
/** The same once a hand-off has carried `BUSY_HAND_OFF_EVENTS` or more: the writer is busy. */
export const BUSY_HAND_OFF_LINGER_MS = 50;
export const BUSY_HAND_OFF_EVENTS = 8;
/**
 * How long the rows of events handed off wait to be marked published, so that the hand-offs of
 * this while share one UPDATE: at a low rate each commit goes out alone, and a statement of its
 * own cost its writer a round trip to PostgreSQL per event. Well inside the poll's grace, so the
 * poll does not take rows that are only waiting for their mark.
 */
export const MARK_PUBLISHED_AFTER_MS = 100;
/** The most events one job carries to a subscriber: what one of its batches takes (event-consumer.ts). */
export const MAX_EVENTS_PER_JOB = 32;

/**
 * Moves committed outbox rows to the event queue of every subscriber (EVENT_SUBSCRIBERS), then
 * marks them published. A crash between the two publishes again: subscribers de-duplicate on
 * the event id (and a job of one event is that id too), so nothing is lost and nothing is invented.
 *
 * Two ways out. The writing process hands its events over right after their commit (`handOff`):
 * those committed in the same turn of the event loop, or while the previous hand-off ran, go out
 * together, one call per subscriber queue, with no transaction; the events handed off within
 * MARK_PUBLISHED_AFTER_MS are then marked published by one UPDATE. The poll (every
 * `pollIntervalMs`, and on `kick`) is the safety net: it publishes, once they have waited
 * `pollGraceMs`, the events a crash between commit and hand-off, or a failed hand-off, left
 * unpublished.
 */
export class OutboxRelay {
  private readonly table: string;
  // Opened on the first publish, so a module that fails to boot leaves no connection behind.
  private connection?: RedisClient;
  private readonly queues = new Map<ServiceName, Queue>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  /** Events committed and not yet handed to their queues; they go with the next hand-off. */
  private handedOff: DomainEvent[] = [];
  private readonly flushes = new Set<Promise<void>>();
  /** The next hand-off, waiting for its turn (`flushTimer`) or for the next turn of the event loop. */
  private flushTimer?: NodeJS.Timeout;
  private flushQueued = false;
  private lastFlushAt = 0;
  private lastFlushSize = 0;
  /** Ids of events out in their queues whose rows are still to be marked published. */
  private unmarked: string[] = [];
  private markTimer?: NodeJS.Timeout;
  private marking?: Promise<void>;
  private closed = false;
  private stopping?: Promise<void>;
  onPublished?: (count: number, oldestLagMs: number) => void;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: OutboxRelayOptions,
  ) {
    this.table = `${quoteSchema(options.schema)}."outbox_events"`;
  }

  /** The PostgreSQL schema whose outbox this relay drains. */
  get schema(): string {
    return this.options.schema;
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.options.pollIntervalMs ?? 500);
    this.timer.unref();
    this.kick();
  }

  /** Asks for a pass now (after a commit); passes never overlap. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined)
      .catch((error: unknown) => this.options.logger.error({ err: (error as Error).message }, 'outbox relay pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  /**
   * Publishes an event its transaction has just committed, together with the others committed in
   * the same turn of the event loop. A failure leaves the rows unpublished for the poll.
   */
  handOff(event: DomainEvent): void {
    // Stopped for good (its queues closed): the row stays unpublished for the next process's poll.
    if (this.closed) return;
    this.handedOff.push(event);
    this.scheduleFlush();
  }

  /**
   * One hand-off in flight at a time, and the next at least `handOffLingerMs` after the one before
   * began: the events committed meanwhile go out together after it, so under load many commits
   * share one call per queue, and at a moderate rate (100 commits a second) the commits of those
   * milliseconds share a job, which each subscriber takes and finishes once. After a hand-off of
   * many events the writer is busy, and the next waits `busyHandOffLingerMs`: a subscriber's job
   * costs it about the same whatever it carries, so fewer, fuller jobs spare its CPU, for a few
   * more milliseconds on each event when every event waits for its turn anyway.
   */
  private scheduleFlush(): void {
    if (this.flushTimer || this.flushQueued || this.flushes.size >= HAND_OFFS_IN_FLIGHT || !this.handedOff.length) return;
    const linger = this.options.handOffLingerMs ?? HAND_OFF_LINGER_MS;
    const busyLinger = Math.max(linger, this.options.busyHandOffLingerMs ?? BUSY_HAND_OFF_LINGER_MS);
    const wait = this.lastFlushAt + (this.lastFlushSize >= BUSY_HAND_OFF_EVENTS ? busyLinger : linger) - Date.now();
    if (wait > 0) {
      this.flushTimer = setTimeout(() => this.flush(), wait);
    } else {
      this.flushQueued = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.flushQueued = false;
    const batch = this.handedOff;
    if (!batch.length) return;
    this.handedOff = [];
    this.lastFlushAt = Date.now();
    this.lastFlushSize = batch.length;
    const flush = this.publishHandedOff(batch).finally(() => {
      this.flushes.delete(flush);
      this.scheduleFlush();
    });
    this.flushes.add(flush);
  }

  /** Stops after the batch in progress and the hand-offs already made (once, however often called). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      if (this.timer) clearInterval(this.timer);
      // Hand-offs still scheduled, or waiting for the one in flight: let each start at once, and end.
      do {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.flushTimer) this.flush();
        await Promise.all(this.flushes);
      } while (this.flushes.size || this.handedOff.length);
      await this.markPublished();
      await this.running;
      this.closed = true;
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
      this.connection?.disconnect();
    })();
    return this.stopping;
  }

  /** One pass: publish batches until the outbox is empty. Returns how many were published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.publishBatch();
      total += published;
      if (published < (this.options.batchSize ?? 100) || this.stopped) return total;
    }
  }

  /** What the outbox holds that is not relayed yet (the outbox-lag metric, read at scrape time). */
  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.prisma.$queryRaw<Array<{ unpublished: number; age: number }>>`
      SELECT count(*)::int AS unpublished,
             COALESCE(EXTRACT(EPOCH FROM (now() - min(created_at))), 0)::float8 AS age
      FROM ${Prisma.raw(this.table)} WHERE published_at IS NULL`;
    return { unpublished: row?.unpublished ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
  }

  private async publishBatch(): Promise<number> {
    // Most passes find nothing (the writer's hand-off has published it): one indexed probe on the
    // driver, instead of a transaction, says so.
    const before = new Date(Date.now() - (this.options.pollGraceMs ?? 500));
    const waiting = await sendOnDriver(this.prisma, Prisma.sql`SELECT 1 FROM ${Prisma.raw(this.table)} WHERE published_at IS NULL AND created_at <= ${before} LIMIT 1`);
    if (!waiting.rowCount) return 0;
    const rows = await this.prisma.$transaction(async (tx) => {
      const batch = await tx.$queryRaw<Array<{ id: string; payload: DomainEvent; created_at: Date }>>`
        SELECT id, payload, created_at FROM ${Prisma.raw(this.table)}
        WHERE published_at IS NULL AND created_at <= ${before} ORDER BY created_at, id
        LIMIT ${this.options.batchSize ?? 100} FOR UPDATE SKIP LOCKED`;
      if (!batch.length) return batch;
      await this.addToQueues(batch.map((row) => row.payload));
      const ids = batch.map((row) => row.id);
      await tx.$executeRaw`UPDATE ${Prisma.raw(this.table)} SET published_at = now() WHERE id = ANY(${ids})`;
      return batch;
    }, { maxWait: 5000, timeout: 30000 });
    if (!rows.length) return 0;
    // After the commit, so what is counted and logged is what really went out.
    this.published(rows.map((row) => row.payload), rows[0].created_at.getTime());
    return rows.length;
  }

  private async publishHandedOff(events: DomainEvent[]): Promise<void> {
    try {
      await this.addToQueues(events);
      this.published(events, Date.parse(events[0].occurredAt));
      for (const event of events) this.unmarked.push(event.id);
      this.markTimer ??= setTimeout(() => void this.markPublished(), this.options.markPublishedAfterMs ?? MARK_PUBLISHED_AFTER_MS).unref();
    } catch (error) {
      // Left unpublished: the next poll publishes them (a repeat is harmless, see above).
      this.options.logger.warn({ err: (error as Error).message, events: events.length }, 'outbox hand-off failed; the poll relays these events');
    }
  }

  /**
   * Marks the rows of the events handed off so far published, in one UPDATE, after those of the
   * UPDATE before. A failure leaves them to the poll, which publishes them again: a repeat that
   * subscribers take once (see above).
   */
  private markPublished(): Promise<void> {
    clearTimeout(this.markTimer);
    this.markTimer = undefined;
    const ids = this.unmarked;
    this.unmarked = [];
    const previous = this.marking;
    const marking = (async () => {
      await previous;
      if (!ids.length) return;
      try {
        await sendOnDriver(this.prisma, Prisma.sql`UPDATE ${Prisma.raw(this.table)} SET published_at = now() WHERE id = ANY(${ids}) AND published_at IS NULL`);
      } catch (error) {
        this.options.logger.warn({ err: (error as Error).message, events: ids.length }, 'relayed events not marked published; the poll relays them again');
      }
    })();
    this.marking = marking;
    return marking;
  }

  /**
   * Adds each event to the event queue of every subscriber (EVENT_SUBSCRIBERS): one call per
   * queue (`addJobs`), the queues in parallel (subscribers consume concurrently anyway, so order buys nothing).
   * An event alone goes as its own job, under its id; several go as one job of up to
   * MAX_EVENTS_PER_JOB (EVENT_BATCH_JOB), so a subscriber takes and finishes one job for them all.
   * Retried with the capped backoff for about a day by default, then dead-lettered by the
   * subscriber (event-retry.ts, event-consumer.ts).
   */
  private async addToQueues(events: DomainEvent[]): Promise<void> {
    const bySubscriber = new Map<ServiceName, DomainEvent[]>();
    for (const event of events) {
      for (const subscriber of EVENT_SUBSCRIBERS[event.type] ?? []) {
        const list = bySubscriber.get(subscriber);
        if (list) list.push(event);
        else bySubscriber.set(subscriber, [event]);
      }
    }
    const attempts = this.options.maxAttempts ?? DEFAULT_EVENT_MAX_ATTEMPTS;
    const spans = tracingEnabled() ? this.publishSpans(events) : undefined;
    const queued = (event: DomainEvent) => spans?.carried.get(event) ?? event;
    try {
      await Promise.all(
        [...bySubscriber].map(([subscriber, list]) =>
          addJobs(
            this.queue(subscriber),
            chunks(list, MAX_EVENTS_PER_JOB).map((chunk) =>
              chunk.length === 1
                ? { name: chunk[0]!.type, data: queued(chunk[0]!), opts: eventJobOptions(chunk[0]!.id, attempts) }
                : { name: EVENT_BATCH_JOB, data: { events: chunk.map(queued) } satisfies EventBatchJobData, opts: eventBatchJobOptions(chunk.map((event) => event.id), attempts) },
            ),
          ),
        ),
      );
    } catch (error) {
      for (const span of spans?.started ?? []) failSpan(span, error);
      throw error;
    } finally {
      for (const span of spans?.started ?? []) span.end();
    }
  }

  /**
   * A producer span per event, under the span that wrote it; the queued copy carries the relay's
   * span instead, so each subscriber's span hangs under the hand-over.
   */
  private publishSpans(events: DomainEvent[]): { started: Span[]; carried: Map<DomainEvent, DomainEvent> } {
    const started: Span[] = [];
    const carried = new Map<DomainEvent, DomainEvent>();
    for (const event of events) {
      const publish = startSpan(`${event.type} publish`, {
        kind: 'producer',
        parent: event.trace,
        requireParent: true,
        attributes: { 'messaging.system': 'bullmq', 'messaging.message.id': event.id, 'pfs.request_id': eventRequestId(event) },
      });
      if (!publish) continue;
      started.push(publish.span);
      const trace = runInTraceContext(publish.context, currentTraceCarrier);
      carried.set(event, trace ? { ...event, trace } : event);
    }
    return { started, carried };
  }

  /** Counts and logs events that went out (`oldestAt`: when the first was written, for the lag). */
  private published(events: DomainEvent[], oldestAt: number): void {
    this.onPublished?.(events.length, Date.now() - oldestAt);
    for (const event of events) {
      // The relay is a hop of the request that wrote the event: log it under its requestId (or,
      // for an event no request caused, under the id its subscribers will use too).
      runWithRequestId(eventRequestId(event), () => this.options.logger.debug({ event: event.type, eventId: event.id }, 'event relayed'));
    }
  }

  private queue(service: ServiceName): Queue {
    let queue = this.queues.get(service);
    if (!queue) {
      this.connection ??= createProducerConnection(this.options.redisUrl, `${this.options.schema}-outbox-relay`);
      queue = new Queue(eventQueueName(service), { connection: this.connection, prefix: this.options.prefix });
      this.queues.set(service, queue);
    }
    return queue;
  }
}
