import type { AddressInfo } from 'node:net';
import perf_hooks from 'node:perf_hooks';
import {
  createMetricsRegistry,
  EVENT_LOOP_SAMPLE_MS,
  httpRequestDurationHistogram,
  outboxMetrics,
  queueDepthGauge,
  renderMetrics,
  startAdminServer,
  WebhookAttemptMetrics,
  dbPoolGauge,
  queueAgeGauge,
  type PoolUsage,
  type OutboxBacklog,
  type QueueDepth,
} from '../src';

/** The sample lines of one metric family, without HELP/TYPE and histogram buckets. */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(name) && !line.includes('_bucket'));
}

describe('metrics', () => {
  it('serves the Prometheus text format with Node process metrics on the admin port', async () => {
    const registry = createMetricsRegistry();
    httpRequestDurationHistogram(registry).observe({ method: 'GET', route: '/v1/accounts/:accountId', status: '200' }, 0.012);
    const admin = await startAdminServer(0, {}, { '/metrics': () => renderMetrics(registry) });
    try {
      const response = await fetch(`http://127.0.0.1:${(admin.address() as AddressInfo).port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await response.text();
      for (const family of ['process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
        expect(text).toContain(`# TYPE ${family} `);
      }
      expect(samples(text, 'http_request_duration_seconds')).toEqual([
        'http_request_duration_seconds_sum{method="GET",route="/v1/accounts/:accountId",status="200"} 0.012',
        'http_request_duration_seconds_count{method="GET",route="/v1/accounts/:accountId",status="200"} 1',
      ]);
    } finally {
      await new Promise((resolve) => admin.close(resolve));
    }
  });

  it('samples the event loop delay four times a second, not a hundred: an idle process is not woken to measure itself', () => {
    const sampler = jest.spyOn(perf_hooks, 'monitorEventLoopDelay');
    try {
      createMetricsRegistry();
      expect(sampler.mock.calls.map(([options]) => options?.resolution)).toEqual([EVENT_LOOP_SAMPLE_MS]);
      expect(EVENT_LOOP_SAMPLE_MS).toBe(250);
    } finally {
      sampler.mockRestore();
    }
  });

  it('reads queue depth at each scrape, and leaves the series out (not the scrape) when the read fails', async () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    let current: QueueDepth[] | Error = [
      { queue: 'ledger-commands', state: 'waiting', count: 3 },
      { queue: 'ledger-commands', state: 'active', count: 1 },
    ];
    let reads = 0;
    queueDepthGauge(registry, async () => {
      reads += 1;
      if (current instanceof Error) throw current;
      return current;
    });
    expect(reads).toBe(0);

    expect(samples(await registry.metrics(), 'queue_jobs')).toEqual([
      'queue_jobs{queue="ledger-commands",state="waiting"} 3',
      'queue_jobs{queue="ledger-commands",state="active"} 1',
    ]);
    current = [{ queue: 'ledger-commands', state: 'waiting', count: 0 }];
    expect(samples(await registry.metrics(), 'queue_jobs')).toEqual(['queue_jobs{queue="ledger-commands",state="waiting"} 0']);
    current = new Error('ECONNREFUSED');
    expect(samples(await registry.metrics(), 'queue_jobs')).toEqual([]);
    expect(reads).toBe(3);
  });

  it('reads the outbox backlog once per scrape for both gauges, and counts published rows', async () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    let backlog: OutboxBacklog | Error = { unpublished: 4, oldestAgeSeconds: 92.5 };
    let reads = 0;
    const outbox = outboxMetrics(registry, 'ledger', async () => {
      reads += 1;
      if (backlog instanceof Error) throw backlog;
      return backlog;
    });
    let text = await registry.metrics();
    expect(samples(text, 'outbox_')).toEqual([
      'outbox_events_published_total{schema="ledger"} 0',
      'outbox_oldest_unpublished_age_seconds{schema="ledger"} 92.5',
      'outbox_unpublished_events{schema="ledger"} 4',
    ]);
    expect(reads).toBe(1);

    outbox.published.inc({ schema: 'ledger' }, 4);
    backlog = new Error('relation does not exist');
    text = await registry.metrics();
    expect(samples(text, 'outbox_')).toEqual(['outbox_events_published_total{schema="ledger"} 4']);
  });

  it('exports every webhook attempt outcome from the start and counts what the worker records', async () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    const attempts = new WebhookAttemptMetrics(registry);
    expect(samples(await registry.metrics(), 'webhook_delivery_attempts_total')).toEqual([
      'webhook_delivery_attempts_total{outcome="success"} 0',
      'webhook_delivery_attempts_total{outcome="failure"} 0',
      'webhook_delivery_attempts_total{outcome="timeout"} 0',
    ]);
    expect(samples(await registry.metrics(), 'webhook_endpoints_disabled_total')).toEqual([
      'webhook_endpoints_disabled_total{reason="gone"} 0',
      'webhook_endpoints_disabled_total{reason="failing"} 0',
    ]);
    attempts.record('success', 120);
    attempts.record('timeout', 15000, 'failing');
    attempts.record('success', 40);
    expect(samples(await registry.metrics(), 'webhook_delivery_attempts_total')).toEqual([
      'webhook_delivery_attempts_total{outcome="success"} 2',
      'webhook_delivery_attempts_total{outcome="failure"} 0',
      'webhook_delivery_attempts_total{outcome="timeout"} 1',
    ]);
    expect(samples(await registry.metrics(), 'webhook_delivery_duration_seconds_count')).toEqual([
      'webhook_delivery_duration_seconds_count{outcome="success"} 2',
      'webhook_delivery_duration_seconds_count{outcome="timeout"} 1',
    ]);
    expect(samples(await registry.metrics(), 'webhook_delivery_duration_seconds_sum')).toContain('webhook_delivery_duration_seconds_sum{outcome="success"} 0.16');
    expect(samples(await registry.metrics(), 'webhook_endpoints_disabled_total')).toEqual([
      'webhook_endpoints_disabled_total{reason="gone"} 0',
      'webhook_endpoints_disabled_total{reason="failing"} 1',
    ]);
  });

  it('reads the pool and the queues when scraped, and leaves the series out when they cannot be read', async () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    let pool: PoolUsage | undefined = { total: 7, idle: 2, waiting: 3, max: 10 };
    let ages: () => Promise<Array<{ queue: string; ageSeconds: number }>> = async () => [{ queue: 'ledger.commands', ageSeconds: 1.5 }];
    dbPoolGauge(registry, () => pool);
    queueAgeGauge(registry, () => ages());
    expect(samples(await registry.metrics(), 'db_pool_connections')).toEqual([
      'db_pool_connections{state="total"} 7',
      'db_pool_connections{state="idle"} 2',
      'db_pool_connections{state="waiting"} 3',
      'db_pool_connections{state="max"} 10',
    ]);
    expect(samples(await registry.metrics(), 'queue_oldest_waiting_age_seconds')).toEqual(['queue_oldest_waiting_age_seconds{queue="ledger.commands"} 1.5']);
    pool = undefined;
    ages = () => Promise.reject(new Error('Redis unreachable'));
    expect(samples(await registry.metrics(), 'db_pool_connections')).toEqual([]);
    expect(samples(await registry.metrics(), 'queue_oldest_waiting_age_seconds')).toEqual([]);
  });

  it('keeps the registries of two apps in one process apart', async () => {
    const first = createMetricsRegistry();
    const second = createMetricsRegistry();
    httpRequestDurationHistogram(first).observe({ method: 'GET', route: '/healthz', status: '200' }, 0.001);
    // The same family in a second registry does not clash with the first.
    httpRequestDurationHistogram(second);
    expect(samples(await first.metrics(), 'http_request_duration_seconds_count')).toHaveLength(1);
    expect(samples(await second.metrics(), 'http_request_duration_seconds_count')).toHaveLength(0);
  });
});
