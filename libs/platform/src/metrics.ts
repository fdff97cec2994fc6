import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics shared by every app. Each app builds one registry (never prom-client's
 * global one, so several apps can run in one test process) and the families it needs from the
 * factories below: one place for names, labels and buckets, so dashboards see the same series
 * from every app.
 */
export type { Counter, Gauge, Histogram };

/** A registry in the Prometheus text format; a class of ours, so it is also the DI token. */
export class MetricsRegistry extends Registry {}

/** Latency buckets in seconds: a 1 ms cache hit up to the 5 s command timeout and beyond. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * How often the event loop's delay is sampled, in ms. prom-client's default (10) is a timer that
 * wakes every idle process a hundred times a second, which cost each of ours more CPU at rest than
 * the rest of what it does then; four samples a second still show a loop that stalls.
 */
export const EVENT_LOOP_SAMPLE_MS = 250;

/** A registry with Node's default process metrics (heap, event loop lag, GC, handles). */
export function createMetricsRegistry(options: { defaultMetrics?: boolean } = {}): MetricsRegistry {
  const registry = new MetricsRegistry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}

/** The Prometheus text exposition of a registry, as the admin server's extra routes expect. */
export async function renderMetrics(registry: Registry): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

export type HttpDurationLabels = 'method' | 'route' | 'status';

/** Gateway: one observation per response, by route template (never the raw path) and status. */
export function httpRequestDurationHistogram(registry: Registry): Histogram<HttpDurationLabels> {
  return new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request received to response sent, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
}

export const COMMAND_ROUND_TRIP_OUTCOMES = ['ok', 'domain_error', 'unavailable', 'error'] as const;
export type CommandRoundTripOutcome = (typeof COMMAND_ROUND_TRIP_OUTCOMES)[number];

/** Sender side of a command: enqueue to reply (or failure), by queue, command and outcome. */
export function commandRoundTripHistogram(registry: Registry): Histogram<'queue' | 'command' | 'outcome'> {
  return new Histogram({
    name: 'command_round_trip_seconds',
    help: 'Time from sending a command to its reply, by queue, command and outcome (ok, domain_error, unavailable, error).',
    labelNames: ['queue', 'command', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
}

/** Consumer side: every job a worker finished, by queue, job name and outcome. */
export function jobOutcomesCounter(registry: Registry): Counter<'queue' | 'job' | 'outcome'> {
  return new Counter({
    name: 'queue_jobs_processed_total',
    help: 'Jobs processed by this process, by queue, job name and outcome (ok, domain_error, failed, stale, duplicate).',
    labelNames: ['queue', 'job', 'outcome'],
    registers: [registry],
  });
}

export function jobDurationHistogram(registry: Registry): Histogram<'queue' | 'job' | 'outcome'> {
  return new Histogram({
    name: 'queue_job_duration_seconds',
    help: 'Time a worker spent on a job, by queue, job name and outcome.',
    labelNames: ['queue', 'job', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
}

/**
 * Events a subscriber gave up on: after the last attempt, or at once when the event does not
 * match the contract, it went to the subscriber's dead-letter queue (alert on any increase).
 */
export function eventsDeadLetteredCounter(registry: Registry): Counter<'subscriber' | 'event'> {
  return new Counter({
    name: 'events_dead_lettered_total',
    help: "Events moved to the subscriber's dead-letter queue, by subscriber and event type.",
    labelNames: ['subscriber', 'event'],
    registers: [registry],
  });
}

export const QUEUE_DEPTH_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueDepthState = (typeof QUEUE_DEPTH_STATES)[number];

export interface QueueDepth {
  queue: string;
  state: QueueDepthState;
  count: number;
}

/** Jobs per queue and state, read from Redis when scraped (so never stale, and free between scrapes). */
export function queueDepthGauge(registry: Registry, read: () => Promise<readonly QueueDepth[]>): Gauge<'queue' | 'state'> {
  return new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in a queue by state (waiting, active, delayed, failed), read at scrape time.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      // Redis unreachable: the series go absent (alertable) and the rest of the scrape still works.
      const depths = await read().catch(() => []);
      for (const depth of depths) this.set({ queue: depth.queue, state: depth.state }, depth.count);
    },
  });
}

export interface OutboxBacklog {
  /** Rows committed but not yet relayed. */
  unpublished: number;
  /** Age of the oldest such row in seconds; 0 when there is none. */
  oldestAgeSeconds: number;
}

export interface OutboxMetrics {
  published: Counter<'schema'>;
  oldestAge: Gauge<'schema'>;
  unpublished: Gauge<'schema'>;
}

/**
 * Outbox lag: the age of the oldest unpublished row (the number to alert on: it grows when the
 * relay is stuck) and their count, read at scrape time; plus how many rows the relay published.
 */
export function outboxMetrics(registry: Registry, schema: string, read: () => Promise<OutboxBacklog>): OutboxMetrics {
  // Both gauges come from one query: a scrape collects them together and shares it.
  // A failed read leaves both absent rather than failing the whole scrape.
  let reading: Promise<OutboxBacklog | undefined> | undefined;
  const readOnce = (): Promise<OutboxBacklog | undefined> =>
    (reading ??= read()
      .catch(() => undefined)
      .finally(() => (reading = undefined)));
  const published = new Counter({
    name: 'outbox_events_published_total',
    help: 'Outbox rows relayed to the event queues by this process, by the schema owning the outbox.',
    labelNames: ['schema'],
    registers: [registry],
  });
  published.inc({ schema }, 0);
  return {
    published,
    oldestAge: new Gauge({
      name: 'outbox_oldest_unpublished_age_seconds',
      help: 'Age of the oldest committed outbox row not yet relayed; 0 when the outbox is drained, absent when unreadable.',
      labelNames: ['schema'],
      registers: [registry],
      async collect() {
        const backlog = await readOnce();
        this.reset();
        if (backlog) this.set({ schema }, backlog.oldestAgeSeconds);
      },
    }),
    unpublished: new Gauge({
      name: 'outbox_unpublished_events',
      help: 'Committed outbox rows not yet relayed; absent when unreadable.',
      labelNames: ['schema'],
      registers: [registry],
      async collect() {
        const backlog = await readOnce();
        this.reset();
        if (backlog) this.set({ schema }, backlog.unpublished);
      },
    }),
  };
}

export const WEBHOOK_ATTEMPT_OUTCOMES = ['success', 'failure', 'timeout'] as const;
export type WebhookAttemptOutcome = (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number];

/**
 * Webhook delivery attempts by outcome: `success` (2xx), `failure` (any other answer, a refused
 * connection or a blocked address), `timeout` (no answer within the attempt's 15 s). Every
 * outcome starts at 0 so a dashboard shows the series before the first attempt.
 */
export function webhookAttemptsCounter(registry: Registry): Counter<'outcome'> {
  const counter = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome (success, failure, timeout).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of WEBHOOK_ATTEMPT_OUTCOMES) counter.inc({ outcome }, 0);
  return counter;
}

/**
 * What the webhook delivery worker records once per attempt. A class, so it is its own DI token:
 * the runtime binds it in the worker only, which owns the attempts.
 */
export class WebhookAttemptMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly durations: Histogram<'outcome'>;
  private readonly disabled: Counter<'reason'>;

  constructor(registry: Registry) {
    this.attempts = webhookAttemptsCounter(registry);
    this.durations = new Histogram({
      name: 'webhook_delivery_duration_seconds',
      help: "Time from sending a delivery to the endpoint's answer (or the timeout), by outcome (success, failure, timeout).",
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    });
    this.disabled = new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Endpoints this worker disabled after an attempt, by reason: gone (the endpoint answered 410) or failing (failures past WEBHOOK_DISABLE_AFTER).',
      labelNames: ['reason'],
      registers: [registry],
    });
    for (const reason of ['gone', 'failing']) this.disabled.inc({ reason }, 0);
  }

  record(outcome: WebhookAttemptOutcome, durationMs: number, disabled: 'gone' | 'failing' | null = null): void {
    this.attempts.inc({ outcome });
    this.durations.observe({ outcome }, durationMs / 1000);
    if (disabled) this.disabled.inc({ reason: disabled });
  }
}

/** What a PostgreSQL pool holds at scrape time. */
export interface PoolUsage {
  /** Connections open (busy or idle). */
  total: number;
  idle: number;
  /** Queries waiting for a connection: above 0 the pool is saturated. */
  waiting: number;
  /** The pool's size (DATABASE_POOL_SIZE). */
  max: number;
}

/** A process's PostgreSQL pool, read when scraped: `db_pool_connections{state}`. */
export function dbPoolGauge(registry: Registry, read: () => PoolUsage | undefined): Gauge<'state'> {
  return new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool of this process at scrape time, by state: total (open), idle, waiting (queries queued for a connection) and max (the pool size).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset();
      const usage = read();
      if (!usage) return;
      for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, usage[state]);
    },
  });
}

/** Age of the oldest job waiting in each queue, read when scraped: `queue_oldest_waiting_age_seconds{queue}`. */
export function queueAgeGauge(registry: Registry, read: () => Promise<ReadonlyArray<{ queue: string; ageSeconds: number }>>): Gauge<'queue'> {
  return new Gauge({
    name: 'queue_oldest_waiting_age_seconds',
    help: 'Age of the oldest job waiting in a queue this process consumes; 0 when none waits, absent when Redis is unreachable.',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      const ages = await read().catch(() => []);
      for (const age of ages) this.set({ queue: age.queue }, age.ageSeconds);
    },
  });
}
