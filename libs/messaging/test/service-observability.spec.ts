import { randomBytes } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DomainError, newId, type CommandJobData, type PingResult } from '@pfs/contracts';
import { createPrismaClient, Prisma } from '@pfs/persistence';
import { createMetricsRegistry, currentRequestId, readPlatformConfig, WebhookAttemptMetrics } from '@pfs/platform';
import { eventually, isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import {
  commandConsumerProvider,
  createRedisConnection,
  instrumentCommandBus,
  OutboxRelay,
  ServiceRuntimeModule,
} from '../src';
import { pingOnlyTable } from './support/ping-only-handlers';

const prefix = isolateQueues('msg-obs');

/*
 * A service process in miniature (the quote queue and schema, which nothing else in this
 * package's tests uses): what its admin port's /metrics reports, and what its drain does to jobs
 * in flight and to jobs that arrive meanwhile.
 */

const SERVICE = 'quote' as const;
const QUEUE = 'quote-queries';
/** What the handler does for a request id; `ok` when the test registered nothing. */
const behaviours = new Map<string, 'domain_error' | 'held'>();
/** Held handlers wait for the test to let them finish, so "in flight" does not depend on timing. */
let releaseHeld: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();

/** The queue's one command (system.ping), answered as the test registered for the request. */
@Injectable()
class ProbeUseCase {
  async execute(): Promise<PingResult> {
    const behaviour = behaviours.get(currentRequestId() ?? '');
    if (behaviour === 'domain_error') throw new DomainError('forbidden', 'The probe refuses this one.');
    if (behaviour === 'held') await held;
    return { service: SERVICE, time: new Date().toISOString() };
  }
}

@Module({
  imports: [ServiceRuntimeModule.forService({ service: SERVICE, schema: 'quote' })],
  providers: [...commandConsumerProvider(SERVICE, pingOnlyTable(SERVICE, ProbeUseCase))],
})
class ProbeServiceModule {}

const config = readPlatformConfig();
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 2 });
const redis = createRedisConnection(config.redisUrl, 'obs-test');
const queue = new Queue(QUEUE, { connection: redis, prefix });
// Where the relay puts the outbox rows of the lag test.
const ledgerEvents = new Queue('ledger-events', { connection: redis, prefix });

function requestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

async function scrape(service: ServiceUnderTest): Promise<string> {
  const response = await fetch(`${service.adminUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return response.text();
}

/** The value of one sample line, e.g. `queue_jobs{queue="x",state="delayed"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A job as the CommandBus would add it, for a reply channel nobody listens on. */
function pingJob(id: string): CommandJobData {
  return { payload: {}, meta: { requestId: id, commandId: `cmd_${id.slice(4)}`, replyTo: `${prefix}:replies:nobody`, deadline: Date.now() + 60000 } };
}

afterAll(async () => {
  for (const each of [queue, ledgerEvents]) {
    await each.obliterate({ force: true });
    await each.close();
  }
  redis.disconnect();
  await prisma.$disconnect();
});

describe('a service instance: /metrics on the admin port', () => {
  let service: ServiceUnderTest;

  beforeAll(async () => {
    service = await startServiceUnderTest(ProbeServiceModule);
  });

  afterAll(async () => {
    await service?.close();
  });

  it('counts job outcomes and times them per queue and job, and times the round trip at the sender', async () => {
    const senderMetrics = createMetricsRegistry({ defaultMetrics: false });
    instrumentCommandBus(senderMetrics, service.bus);
    const refused = requestId();
    behaviours.set(refused, 'domain_error');

    await service.bus.send(SERVICE, 'system.ping', {}, { requestId: requestId() });
    await service.bus.send(SERVICE, 'system.ping', {}, { requestId: requestId() });
    await expect(service.bus.send(SERVICE, 'system.ping', {}, { requestId: refused })).rejects.toMatchObject({ code: 'forbidden' });
    // No consumer on the beneficiary queue under this prefix: the sender fails fast.
    await expect(service.bus.send('beneficiary', 'system.ping', {}, { requestId: requestId(), timeoutMs: 300 })).rejects.toThrow(/beneficiary service/);

    const text = await scrape(service);
    expect(sample(text, `queue_jobs_processed_total{queue="${QUEUE}",job="system.ping",outcome="ok"}`)).toBe(2);
    expect(sample(text, `queue_jobs_processed_total{queue="${QUEUE}",job="system.ping",outcome="domain_error"}`)).toBe(1);
    expect(sample(text, `queue_job_duration_seconds_count{queue="${QUEUE}",job="system.ping",outcome="ok"}`)).toBe(2);
    // Node's process metrics come with every app.
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    // The webhook attempts counter belongs to the delivery worker only.
    expect(text).not.toContain('webhook_delivery_attempts_total');
    expect(() => service.app.get(WebhookAttemptMetrics)).toThrow();

    const sent = await senderMetrics.metrics();
    expect(sample(sent, `command_round_trip_seconds_count{queue="${QUEUE}",command="system.ping",outcome="ok"}`)).toBe(2);
    expect(sample(sent, `command_round_trip_seconds_count{queue="${QUEUE}",command="system.ping",outcome="domain_error"}`)).toBe(1);
    expect(sample(sent, `command_round_trip_seconds_count{queue="beneficiary-queries",command="system.ping",outcome="unavailable"}`)).toBe(1);
  });

  it('reads the depth of its queue per state at each scrape', async () => {
    let text = await scrape(service);
    for (const state of ['waiting', 'active', 'delayed', 'failed']) {
      expect(sample(text, `queue_jobs{queue="${QUEUE}",state="${state}"}`)).toBe(0);
    }
    const later = await queue.add('system.ping', pingJob(requestId()), { delay: 3600_000 });
    text = await scrape(service);
    expect(sample(text, `queue_jobs{queue="${QUEUE}",state="delayed"}`)).toBe(1);
    await later.remove();
    text = await scrape(service);
    expect(sample(text, `queue_jobs{queue="${QUEUE}",state="delayed"}`)).toBe(0);
    // Nothing waits: the oldest waiting job is 0 s old.
    expect(sample(text, `queue_oldest_waiting_age_seconds{queue="${QUEUE}"}`)).toBe(0);
  });

  it("reports its PostgreSQL pool at each scrape: open, idle, waiting and the pool's size", async () => {
    const text = await scrape(service);
    expect(sample(text, 'db_pool_connections{state="max"}')).toBeGreaterThan(0);
    expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(sample(text, 'db_pool_connections{state="idle"}') ?? Infinity);
    expect(sample(text, 'db_pool_connections{state="waiting"}')).toBe(0);
  });

  it('counts what the relay publishes, and reports the age of the oldest row it has not', async () => {
    const table = Prisma.raw('"quote"."outbox_events"');
    const insert = async (ageSeconds: number): Promise<string> => {
      const id = newId('event');
      const event = { id, type: 'organization.created', source: SERVICE, occurredAt: new Date().toISOString(), requestId: null, data: {} };
      await prisma.$executeRaw`INSERT INTO ${table} (id, type, payload, created_at)
        VALUES (${id}, 'organization.created', ${JSON.stringify(event)}::jsonb, now() - make_interval(secs => ${ageSeconds}))`;
      return id;
    };
    const published = async (id: string) =>
      (await prisma.$queryRaw<Array<{ published_at: Date | null }>>`SELECT published_at FROM ${table} WHERE id = ${id}`)[0]?.published_at;
    const series = (name: string) => `${name}{schema="quote"}`;

    const before = sample(await scrape(service), series('outbox_events_published_total')) ?? NaN;
    const relayed = await insert(0);
    await eventually(async () => ((await published(relayed)) ? true : undefined));
    const text = await scrape(service);
    expect(sample(text, series('outbox_events_published_total'))).toBe(before + 1);
    expect(sample(text, series('outbox_unpublished_events'))).toBe(0);
    expect(sample(text, series('outbox_oldest_unpublished_age_seconds'))).toBe(0);

    // With the relay stopped, a row waits: its age is the lag to alert on.
    await service.app.get(OutboxRelay).stop();
    const stuck = await insert(90);
    const lagging = await scrape(service);
    expect(sample(lagging, series('outbox_unpublished_events'))).toBe(1);
    expect(sample(lagging, series('outbox_oldest_unpublished_age_seconds'))).toBeGreaterThanOrEqual(90);
    expect(sample(lagging, series('outbox_oldest_unpublished_age_seconds'))).toBeLessThan(120);
    await prisma.$executeRaw`DELETE FROM ${table} WHERE id = ${stuck}`;
  });
});

describe('a service instance: draining on stop', () => {
  // A failed assertion must not leave the handler (and so the drain) waiting for ever.
  afterEach(() => releaseHeld());

  it('answers the job in flight, reports not ready meanwhile, leaves no job active and keeps the ones that arrive', async () => {
    const first = await startServiceUnderTest(ProbeServiceModule);
    const heldId = requestId();
    behaviours.set(heldId, 'held');
    held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const inFlight = first.bus.send(SERVICE, 'system.ping', {}, { requestId: heldId });
    await eventually(async () => ((await queue.getActiveCount()) === 1 ? true : undefined), 20000, 10);

    const stopping = first.stop();
    // While it drains: not ready (so no new traffic is routed to it), still answering probes.
    const ready = await fetch(`${first.adminUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { queues: 'shutting down' } });
    // A job that arrives during the drain is not taken by the stopping worker.
    const arrived = await queue.add('system.ping', pingJob(requestId()), { jobId: `arrived-${randomBytes(4).toString('hex')}` });

    releaseHeld();
    await expect(inFlight).resolves.toMatchObject({ service: SERVICE });
    await stopping;
    await first.bus.close();
    expect(await queue.getJobCounts('active', 'waiting')).toEqual({ active: 0, waiting: 1 });
    expect(await arrived.getState()).toBe('waiting');

    // The next instance takes it at once: nothing was lost and nothing waits for a dead worker.
    const second = await startServiceUnderTest(ProbeServiceModule);
    try {
      await eventually(async () => {
        const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'failed');
        return Object.values(counts).every((count) => count === 0) ? true : undefined;
        // Well inside BullMQ's 30 s stalled-job check, which a job held by a dead worker would wait for.
      }, 15000);
      expect(sample(await scrape(second), `queue_jobs_processed_total{queue="${QUEUE}",job="system.ping",outcome="ok"}`)).toBe(1);
    } finally {
      await second.close();
    }
  });
});
