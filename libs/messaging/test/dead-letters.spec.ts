import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { deadLetterQueueName, EVENT_BATCH_JOB, eventQueueName, newId, type EventBatchJobData, type EventEnvelope } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, createMetricsRegistry, readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import {
  createRedisConnection,
  DeadLetters,
  eventBatchJobOptions,
  eventJobOptions,
  EventConsumer,
  instrumentService,
  OutboxRelay,
  PrismaProcessedEventLog,
  QueueDepthReader,
  type EventHandler,
} from '../src';
import { otherLedgerHandlers } from './support/other-ledger-events';

const prefix = isolateQueues('msg-dead');

/*
 * A subscriber (the ledger's event queue, under this file's own queue prefix) whose handler fails
 * on demand, with at most 3 attempts per event (EVENT_MAX_ATTEMPTS set low), against the real
 * PostgreSQL inbox (`ledger` schema, unique event ids) and Redis.
 */
const MAX_ATTEMPTS = 3;
// Stands for personal data in a payload: it must never reach a log line.
const PERSONAL = 'Jane Q. Doe Trading';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const logger = createLogger('dead-letter-test', 'info', sink);

const config = readPlatformConfig();
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma);
const redis = createRedisConnection(config.redisUrl, 'dead-letter-test');
const events = new Queue(eventQueueName('ledger'), { connection: redis, prefix });
const dead = new Queue(deadLetterQueueName('ledger'), { connection: redis, prefix });
const deadLetters = new DeadLetters(redis, { prefix, maxAttempts: MAX_ATTEMPTS });

/** Event ids whose handling throws; the handler "is fixed" for an id once it is removed. */
const broken = new Set<string>();
const attempts = new Map<string, number>();
const applied: string[] = [];

class FlakySubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;

  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    attempts.set(event.id, (attempts.get(event.id) ?? 0) + 1);
    if (broken.has(event.id)) throw new Error('ledger database refused the account');
    // Applied once its transaction commits: a batch that fails rolls its events back.
    host.afterCommit(() => applied.push(event.id));
  }
}

function subscriber(): EventConsumer {
  return new EventConsumer('ledger', [new FlakySubscriber(), ...otherLedgerHandlers('organization.created')], new PrismaUnitOfWork(host), new PrismaProcessedEventLog(host, 'ledger'), {
    redisUrl: config.redisUrl,
    prefix,
    logger,
    maxAttempts: MAX_ATTEMPTS,
  });
}

const consumer = subscriber();
const outcomes: Array<[string, string]> = [];
const registry = createMetricsRegistry({ defaultMetrics: false });
// Never started: instrumentService only needs its schema and hooks.
const relay = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: 'ledger', logger });
const depth = new QueueDepthReader({ redisUrl: config.redisUrl, prefix, name: 'dead-letter-test' }, [consumer.queueName, deadLetterQueueName('ledger')]);
instrumentService(registry, { commands: { queueNameOf: () => 'ledger-commands' }, events: consumer, relay, depth });
const countOutcome = consumer.onOutcome;
consumer.onOutcome = (outcome, event, durationMs) => {
  outcomes.push([outcome, event]);
  countOutcome?.(outcome, event, durationMs);
};

/** Another instance of the same subscriber (a restart), reporting to the same hooks. */
function restartedSubscriber(): EventConsumer {
  const restarted = subscriber();
  restarted.onOutcome = consumer.onOutcome;
  restarted.onDeadLettered = consumer.onDeadLettered;
  return restarted;
}

/** A restarted subscriber running for the tests of the describe block that calls this. */
function runRestartedSubscriberInBlock(): void {
  let running: EventConsumer;
  beforeAll(async () => {
    running = restartedSubscriber();
    await running.start();
  });
  afterAll(async () => {
    await running.close();
  });
}

function organizationCreated(): EventEnvelope<'organization.created'> {
  const organizationId = newId('organization');
  return {
    id: newId('event'),
    type: 'organization.created',
    source: 'organization',
    occurredAt: new Date().toISOString(),
    requestId: null,
    aggregateId: organizationId,
    sequence: 1,
    data: {
      organizationId,
      primaryAccountId: newId('account'),
      name: PERSONAL,
      parentOrganizationId: null,
      referrerOrganizationId: null,
      createdAt: new Date().toISOString(),
    },
  };
}

/** Adds the event to the subscriber's queue exactly as the outbox relay does. */
async function publish(event: unknown, id = (event as { id: string }).id, type = (event as { type: string }).type): Promise<void> {
  await events.add(type, event, eventJobOptions(id, MAX_ATTEMPTS));
}

/** Adds several events to the subscriber's queue as one job, as the relay does for events that go out together. */
async function publishTogether(together: unknown[]): Promise<void> {
  const data: EventBatchJobData = { events: together };
  await events.add(EVENT_BATCH_JOB, data, eventBatchJobOptions(together.map((event) => (event as { id: string }).id), MAX_ATTEMPTS));
}

async function deadLetterOf(eventId: string) {
  return eventually(async () => (await deadLetters.list('ledger', 1000)).letters.find((letter) => letter.eventId === eventId), 20000);
}

async function inboxHas(eventId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<unknown[]>`SELECT 1 FROM "ledger"."processed_events" WHERE event_id = ${eventId}`;
  return rows.length === 1;
}

async function metric(event: string): Promise<number | undefined> {
  const text = await registry.metrics();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`events_dead_lettered_total{subscriber="ledger",event="${event}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

beforeAll(async () => {
  await consumer.start();
});

afterAll(async () => {
  await consumer.close();
  await depth.close();
  await deadLetters.close();
  for (const queue of [events, dead]) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  redis.disconnect();
  await prisma.$disconnect();
});

describe('an event that keeps failing', () => {
  it('goes to the dead-letter queue after the last attempt, with the reason, a metric and one error line without the payload', async () => {
    expect(await metric('organization.created')).toBe(0);
    const event = organizationCreated();
    broken.add(event.id);
    const before = Date.now();

    await publish(event);
    const letter = await deadLetterOf(event.id);

    expect(letter).toEqual({
      subscriber: 'ledger',
      eventId: event.id,
      type: 'organization.created',
      reason: 'ledger database refused the account',
      attempts: MAX_ATTEMPTS,
      failedAt: expect.any(String),
      event,
    });
    expect(Date.parse(letter.failedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(letter.failedAt)).toBeLessThanOrEqual(Date.now());
    // Exactly the bounded attempts, and no more afterwards.
    expect(attempts.get(event.id)).toBe(MAX_ATTEMPTS);
    // The failed job is gone, so a replay can add the event again under its id.
    await eventually(async () => ((await events.getJob(event.id)) === undefined ? true : undefined));
    expect(await inboxHas(event.id)).toBe(false);
    expect(await metric('organization.created')).toBe(1);

    const errors = lines.filter((line) => line.msg === 'event dead-lettered: it is kept for an operator to replay (pnpm cli dead-letters:list)');
    expect(errors).toEqual([
      expect.objectContaining({
        level: 'error',
        subscriber: 'ledger',
        event: 'organization.created',
        eventId: event.id,
        attempts: MAX_ATTEMPTS,
        deadLetterQueue: 'ledger-events-dead',
      }),
    ]);
    expect(lines.filter((line) => JSON.stringify(line).includes(PERSONAL))).toEqual([]);
    // Every attempt was counted as a failure.
    expect(outcomes.filter(([outcome]) => outcome === 'failed')).toHaveLength(MAX_ATTEMPTS);
  });

  it('is dead-lettered at once when it does not match the contract', async () => {
    const event = organizationCreated();
    const malformed = { ...event, data: { ...event.data, primaryAccountId: 42 } };

    await publish(malformed);
    const letter = await deadLetterOf(event.id);

    expect(letter).toMatchObject({ attempts: 1, type: 'organization.created', event: malformed });
    expect(letter.reason).toContain('event does not match the contract');
    expect(letter.reason).toContain('primaryAccountId');
    expect(attempts.get(event.id)).toBeUndefined();
  });

  it('is dead-lettered also when BullMQ fails it without running the handler (it stalled too often)', async () => {
    await consumer.close();
    const restarted = restartedSubscriber();
    try {
      const event = organizationCreated();
      await publish(event);
      // What BullMQ's stalled-job check records for a job that stalled more than allowed: the
      // next worker to take it fails it with that reason.
      await redis.hset(`${prefix}:${eventQueueName('ledger')}:${event.id}`, 'defa', 'job stalled more than allowable limit');
      await restarted.start();

      const letter = await deadLetterOf(event.id);
      expect(letter.reason).toBe('job stalled more than allowable limit');
      expect(attempts.get(event.id)).toBeUndefined();
      expect(await metric('organization.created')).toBe(3);
      await eventually(async () => ((await events.getJob(event.id)) === undefined ? true : undefined));
    } finally {
      await restarted.close();
    }
  });
});

describe('an event that fails in a job of several', () => {
  runRestartedSubscriberInBlock();

  it('holds back neither the others nor the job: it goes on alone, under its id, until it is handled', async () => {
    const [before, poisoned, after] = [organizationCreated(), organizationCreated(), organizationCreated()];
    broken.add(poisoned.id);

    await publishTogether([before, poisoned, after]);

    await eventually(async () => (applied.includes(before.id) && applied.includes(after.id) ? true : undefined));
    // Its own job, due after the first backoff, with the attempts any event has.
    const alone = await eventually(() => events.getJob(poisoned.id));
    expect(alone.name).toBe('organization.created');
    expect(alone.data).toEqual(poisoned);
    expect(alone.opts).toMatchObject({ attempts: MAX_ATTEMPTS, removeOnFail: true });
    broken.delete(poisoned.id);
    await eventually(async () => (applied.includes(poisoned.id) ? true : undefined), 10000);

    for (const event of [before, poisoned, after]) {
      expect(applied.filter((id) => id === event.id)).toHaveLength(1);
      expect(await eventually(async () => ((await inboxHas(event.id)) ? true : undefined))).toBe(true);
    }
    // In the job's batch with the others, alone when that batch failed, then in its own job.
    expect(attempts.get(poisoned.id)).toBe(3);
  });

  it('dead-letters at once, under its own id, an event of it that does not match the contract, and handles the rest', async () => {
    const good = organizationCreated();
    const event = organizationCreated();
    const malformed = { ...event, data: { ...event.data, primaryAccountId: 42 } };

    await publishTogether([malformed, good]);

    const letter = await deadLetterOf(event.id);
    expect(letter).toMatchObject({ attempts: 1, type: 'organization.created', event: malformed });
    expect(letter.reason).toContain('event does not match the contract');
    await eventually(async () => (applied.includes(good.id) ? true : undefined));
    expect(attempts.get(event.id)).toBeUndefined();
  });
});

describe('a job of several events that is not the relay’s', () => {
  runRestartedSubscriberInBlock();

  it('is dead-lettered at once, whole, when it carries no list of events, instead of completing with nothing done', async () => {
    const jobId = `batch-${newId('event')}`;
    await events.add(EVENT_BATCH_JOB, { events: { not: 'a list' } }, { jobId, attempts: MAX_ATTEMPTS, removeOnComplete: true, removeOnFail: true });

    const letter = await deadLetterOf(jobId);
    expect(letter).toMatchObject({ attempts: 1, type: EVENT_BATCH_JOB, event: { events: { not: 'a list' } } });
    expect(letter.reason).toContain('has no list of events');
    expect(await metric(EVENT_BATCH_JOB)).toBe(1);
  });
});

describe('DeadLetters (what the operator CLI runs)', () => {
  runRestartedSubscriberInBlock();

  async function deadLettered(): Promise<EventEnvelope<'organization.created'>> {
    const event = organizationCreated();
    broken.add(event.id);
    await publish(event);
    await deadLetterOf(event.id);
    await eventually(async () => ((await events.getJob(event.id)) === undefined ? true : undefined));
    return event;
  }

  it('lists the dead letters oldest first with their failure', async () => {
    const first = await deadLettered();
    const second = await deadLettered();
    const { total, letters } = await deadLetters.list('ledger', 1000);
    const ids = letters.map((letter) => letter.eventId);
    expect(total).toBe(letters.length);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect((await deadLetters.list('ledger', 1)).letters).toHaveLength(1);
    expect(await deadLetters.list('organization')).toEqual({ total: 0, letters: [] });
  });

  it('replays one event once it can be handled: taken with fresh attempts, applied once, the dead letter gone', async () => {
    const event = await deadLettered();
    broken.delete(event.id);

    expect(await deadLetters.replay('ledger', event.id)).toBe('replayed');

    await eventually(async () => (applied.includes(event.id) ? true : undefined), 10000);
    // Its first attempt after the replay succeeded.
    expect(attempts.get(event.id)).toBe(MAX_ATTEMPTS + 1);
    // The handler runs inside the event's transaction: its inbox row is there once that commits.
    expect(await eventually(async () => ((await inboxHas(event.id)) ? true : undefined), 10000)).toBe(true);
    expect((await deadLetters.list('ledger', 1000)).letters.map((letter) => letter.eventId)).not.toContain(event.id);
    expect(await deadLetters.replay('ledger', event.id)).toBe('not-found');
  });

  it('replays harmlessly what was handled meanwhile (the inbox answers duplicate), even if its job is still kept', async () => {
    const event = organizationCreated();
    await publish(event);
    await eventually(async () => ((await (await events.getJob(event.id))?.getState()) === 'completed' ? true : undefined));
    // A dead letter for an event the subscriber has handled (e.g. replayed twice).
    await deadLetters.add('ledger', { id: event.id, name: event.type, data: event }, { reason: 'earlier failure', attempts: 3, failedAt: new Date().toISOString() });
    const duplicatesBefore = outcomes.filter(([outcome]) => outcome === 'duplicate').length;

    // The completed job (kept for a day) does not block the replay under the same id.
    expect(await deadLetters.replay('ledger', event.id)).toBe('replayed');

    await eventually(async () => (outcomes.filter(([outcome]) => outcome === 'duplicate').length > duplicatesBefore ? true : undefined));
    expect(applied.filter((id) => id === event.id)).toHaveLength(1);
  });

  it('leaves the dead letter while a job of the same event is still waiting', async () => {
    const event = organizationCreated();
    await events.add(event.type, event, { ...eventJobOptions(event.id, MAX_ATTEMPTS), delay: 60_000 });
    await deadLetters.add('ledger', { id: event.id, name: event.type, data: event }, { reason: 'earlier failure', attempts: 3, failedAt: new Date().toISOString() });

    expect(await deadLetters.replay('ledger', event.id)).toBe('already-queued');
    expect((await deadLetters.list('ledger', 1000)).letters.map((letter) => letter.eventId)).toContain(event.id);
    await (await events.getJob(event.id))?.remove();
    await (await dead.getJob(event.id))?.remove();
  });

  it('replays all of a subscriber’s dead letters', async () => {
    const both = [await deadLettered(), await deadLettered()];
    for (const event of both) broken.delete(event.id);
    // Only these two stay (the others would fail again at once and come back).
    for (const letter of (await deadLetters.list('ledger', 1000)).letters) {
      if (!both.some((event) => event.id === letter.eventId)) await (await dead.getJob(letter.eventId))?.remove();
    }

    const result = await deadLetters.replayAll('ledger');

    expect(result.alreadyQueued).toEqual([]);
    expect(result.replayed.sort()).toEqual(both.map((event) => event.id).sort());
    expect(await deadLetters.list('ledger')).toEqual({ total: 0, letters: [] });
    await eventually(async () => (both.every((event) => applied.includes(event.id)) ? true : undefined), 10000);
  });
});
