import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  Clock,
  EVENT_BATCH_JOB,
  EVENT_SUBSCRIBERS,
  eventQueueName,
  isId,
  newId,
  SystemClock,
  type DomainEvent,
  type EventBatchJobData,
  type EventContract,
  type EventEnvelope,
} from '@pfs/contracts';
import { createPrismaClient, Prisma, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, DEFAULT_EVENT_MAX_ATTEMPTS, readPlatformConfig, runWithRequestId } from '@pfs/platform';
import { carriedEventIds, eventually, isolateQueues, queuedEvent, statementsDuring } from '@pfs/testing';
import {
  BUSY_HAND_OFF_EVENTS,
  createRedisConnection,
  EVENT_BACKOFF_TYPE,
  EventConsumer,
  MAX_EVENTS_PER_JOB,
  OutboxRelay,
  PrismaEventOutbox,
  PrismaProcessedEventLog,
  type EventHandler,
  type OutboxRelayOptions,
} from '../src';
import { otherLedgerHandlers } from './support/other-ledger-events';

const prefix = isolateQueues('msg-outbox');

// The outbox and inbox of the `quote` schema (this jest run has its own database, so no other
// relay drains it). The subscriber's effect goes to a table of a throwaway schema, written in the
// same transaction as its inbox row.

const SCHEMA = 'quote';
const EFFECTS_SCHEMA = `msgtest_${randomBytes(6).toString('hex').replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)])}`;
const EFFECTS = Prisma.raw(`"${EFFECTS_SCHEMA}"."effects"`);
const NOW = new Date('2026-11-21T04:44:09.123Z');

class FixedClock extends Clock {
  now(): Date {
    return NOW;
  }
}

const config = readPlatformConfig();
const logger = createLogger('messaging-test', 'silent');
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 6 });
const host = new PrismaTransactionHost(prisma);
let kicks = 0;
const outbox = new PrismaEventOutbox(host, 'organization', SCHEMA, new FixedClock(), () => {
  kicks += 1;
});
const relay = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger });
const redis = createRedisConnection(config.redisUrl, 'outbox-test');
const subscriberQueues = EVENT_SUBSCRIBERS['organization.created'].map(
  (service) => new Queue(eventQueueName(service), { connection: redis, prefix }),
);
const ledgerEvents = new Queue(eventQueueName('ledger'), { connection: redis, prefix });

/** Fails the first `n` attempts for an event (after writing its effect, which must roll back). */
const failuresLeft = new Map<string, number>();
const handled: string[] = [];

class RecordingSubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;

  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    handled.push(event.id);
    await host.client.$executeRaw`INSERT INTO ${EFFECTS} (event_id, organization_id) VALUES (${event.id}, ${event.data.organizationId})`;
    const left = failuresLeft.get(event.id) ?? 0;
    if (left > 0) {
      failuresLeft.set(event.id, left - 1);
      throw new Error('subscriber crashed');
    }
  }
}

const consumer = new EventConsumer(
  'ledger',
  [new RecordingSubscriber(), ...otherLedgerHandlers('organization.created')],
  new PrismaUnitOfWork(host),
  new PrismaProcessedEventLog(host, SCHEMA),
  { redisUrl: config.redisUrl, prefix, logger },
);
const outcomes: string[] = [];
consumer.onOutcome = (outcome) => outcomes.push(outcome);

function organizationCreated(): EventContract['organization.created'] {
  return {
    organizationId: newId('organization'),
    primaryAccountId: newId('account'),
    name: 'Acme Payments',
    parentOrganizationId: null,
    referrerOrganizationId: null,
    createdAt: NOW.toISOString(),
  };
}

function envelope(data = organizationCreated()): EventEnvelope<'organization.created'> {
  return {
    id: newId('event'),
    type: 'organization.created',
    source: 'organization',
    occurredAt: NOW.toISOString(),
    requestId: null,
    aggregateId: data.organizationId,
    sequence: 1,
    data,
  };
}

async function appendCommitted(data = organizationCreated()): Promise<DomainEvent> {
  return host.run(() => outbox.append('organization.created', data));
}

async function outboxRow(id: string): Promise<{ type: string; payload: DomainEvent; published_at: Date | null } | undefined> {
  const rows = await prisma.$queryRaw<Array<{ type: string; payload: DomainEvent; published_at: Date | null }>>`
    SELECT type, payload, published_at FROM "quote"."outbox_events" WHERE id = ${id}`;
  return rows[0];
}

async function effectCount(eventId: string): Promise<number> {
  const rows = await prisma.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM ${EFFECTS} WHERE event_id = ${eventId}`;
  return Number(rows[0].count);
}

async function inboxCount(eventId: string): Promise<number> {
  const rows = await prisma.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM "quote"."processed_events" WHERE event_id = ${eventId}`;
  return Number(rows[0].count);
}

beforeAll(async () => {
  await prisma.$executeRawUnsafe(`CREATE SCHEMA "${EFFECTS_SCHEMA}"`);
  await prisma.$executeRawUnsafe(`CREATE TABLE "${EFFECTS_SCHEMA}"."effects" (event_id TEXT NOT NULL, organization_id TEXT NOT NULL)`);
});

afterAll(async () => {
  await consumer.close();
  await relay.stop();
  for (const queue of [...subscriberQueues, ledgerEvents]) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  redis.disconnect();
  await prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${EFFECTS_SCHEMA}" CASCADE`);
  await prisma.$disconnect();
});

describe('PrismaEventOutbox', () => {
  it('writes the event in the surrounding transaction and nudges the relay only after commit', async () => {
    const kicksBefore = kicks;
    const data = organizationCreated();
    let visibleBeforeCommit: unknown = 'unchecked';
    let kicksBeforeCommit = -1;

    const event = await runWithRequestId('req_0123456789abcdef0123456789abcdef', () =>
      host.run(async () => {
        const appended = await outbox.append('organization.created', data);
        // Another connection must not see it yet: it commits with the state change or not at all.
        visibleBeforeCommit = await outboxRow(appended.id);
        kicksBeforeCommit = kicks - kicksBefore;
        return appended;
      }),
    );

    expect(visibleBeforeCommit).toBeUndefined();
    expect(kicksBeforeCommit).toBe(0);
    expect(kicks - kicksBefore).toBe(1);
    expect(isId('event', event.id)).toBe(true);
    expect(event).toEqual({
      id: event.id,
      type: 'organization.created',
      source: 'organization',
      occurredAt: '2026-11-21T04:44:09.123Z',
      requestId: 'req_0123456789abcdef0123456789abcdef',
      // The first event about this organization.
      aggregateId: data.organizationId,
      sequence: 1,
      data,
    });
    const row = await outboxRow(event.id);
    expect(row).toEqual({ type: 'organization.created', payload: event, published_at: null });
  });

  it('leaves no row and publishes nothing when the transaction rolls back', async () => {
    const kicksBefore = kicks;
    let appended: DomainEvent | undefined;

    await expect(
      host.run(async () => {
        appended = await outbox.append('organization.created', organizationCreated());
        throw new Error('the state change failed after the append');
      }),
    ).rejects.toThrow('the state change failed after the append');

    expect(appended).toBeDefined();
    expect(await outboxRow(appended!.id)).toBeUndefined();
    expect(kicks).toBe(kicksBefore);
    await relay.drain();
    for (const queue of subscriberQueues) expect(await queue.getJob(appended!.id)).toBeUndefined();
  });
});

describe('PrismaEventOutbox sequences', () => {
  const appendFor = (organizationId: string) => outbox.append('organization.created', { ...organizationCreated(), organizationId });

  it('numbers the events of one aggregate 1, 2, 3… and each aggregate on its own', async () => {
    const first = newId('organization');
    const second = newId('organization');
    const numbers: Array<[string, number]> = [];
    for (const organizationId of [first, first, second, first]) {
      const event = await host.run(() => appendFor(organizationId));
      numbers.push([event.aggregateId, event.sequence]);
      // What is stored (and relayed) is what the caller got.
      expect((await outboxRow(event.id))?.payload).toMatchObject({ aggregateId: organizationId, sequence: event.sequence });
    }
    expect(numbers).toEqual([
      [first, 1],
      [first, 2],
      [second, 1],
      [first, 3],
    ]);
  });

  it('gives a rolled-back number to the next event (no gaps)', async () => {
    const organizationId = newId('organization');
    await host.run(() => appendFor(organizationId));
    await expect(
      host.run(async () => {
        await appendFor(organizationId);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await host.run(() => appendFor(organizationId))).sequence).toBe(2);
  });

  it('numbers in commit order: a writer that commits first takes the lower number', async () => {
    const organizationId = newId('organization');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstAppended!: () => void;
    const appended = new Promise<void>((resolve) => (firstAppended = resolve));
    const first = host.run(async () => {
      const event = await appendFor(organizationId);
      firstAppended();
      await held;
      return event;
    });
    await appended;
    const second = await host.run(() => appendFor(organizationId));
    release();
    expect([second.sequence, (await first).sequence]).toEqual([1, 2]);
  });

  it('makes a concurrent writer of the same aggregate wait for the first to commit', async () => {
    const organizationId = newId('organization');
    await host.run(() => appendFor(organizationId));
    // The first holds the aggregate's row (as its last statement would) until it commits.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const first = prisma.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "quote"."aggregate_sequences" SET last_sequence = last_sequence + 1 WHERE aggregate_id = ${organizationId}`;
      locked();
      await held;
    });
    // The second starts only once the first holds the row, whatever the machine's speed.
    await holding;
    const second = host.run(() => appendFor(organizationId));
    await eventually(async () => {
      const [row] = await prisma.$queryRaw<Array<{ waiting: number }>>`
        SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%aggregate_sequences%outbox_events%'`;
      return row.waiting >= 1 ? true : undefined;
    });
    release();
    await first;
    expect((await second).sequence).toBe(3);
  });

  it('numbers several events of one aggregate in one unit consecutively, stored as returned', async () => {
    const organizationId = newId('organization');
    const other = newId('organization');
    await host.run(() => appendFor(organizationId));
    const events = await host.run(async () => [await appendFor(organizationId), await appendFor(other), await appendFor(organizationId)]);
    expect(events.map((event) => event.sequence)).toEqual([2, 1, 3]);
    for (const event of events) expect((await outboxRow(event.id))?.payload).toMatchObject({ sequence: event.sequence });
  });

  it('hands out distinct, consecutive numbers to many concurrent writers', async () => {
    const organizationId = newId('organization');
    const events = await Promise.all(Array.from({ length: 5 }, () => host.run(() => appendFor(organizationId))));
    expect(events.map((event) => event.sequence).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });
});

/**
 * A relay never started (only hand-offs publish) with an outbox handing to it, whose first
 * hand-off's adds wait until `release`: the adds each hand-off made, by the event ids they carry, in `calls`.
 */
type QueuedJobs = Parameters<Queue['addBulk']>[0];

/**
 * Watches what the relay puts into queues, one entry per call: `addBulk`'s jobs, or `add`'s one
 * (a subscriber with a single job gets `add`). `hold` runs before each call goes on.
 */
function watchQueueing(hold: (calls: QueuedJobs[]) => Promise<void> = async () => {}) {
  const calls: QueuedJobs[] = [];
  const { add, addBulk } = Queue.prototype;
  const bulk = jest.spyOn(Queue.prototype, 'addBulk').mockImplementation(async function (this: Queue, jobs) {
    calls.push(jobs);
    await hold(calls);
    return addBulk.call(this, jobs);
  });
  const single = jest.spyOn(Queue.prototype, 'add').mockImplementation(async function (this: Queue, name, data, opts) {
    calls.push([{ name, data, opts }]);
    await hold(calls);
    return add.call(this, name, data, opts);
  });
  return {
    calls,
    restore: () => {
      bulk.mockRestore();
      single.mockRestore();
    },
  };
}

function relayWithFirstHandOffHeld(lingers: Pick<OutboxRelayOptions, 'handOffLingerMs' | 'busyHandOffLingerMs'> = {}) {
  const handed = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger, ...lingers });
  const handing = new PrismaEventOutbox(host, 'organization', SCHEMA, new FixedClock(), (event) => handed.handOff(event));
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const watched = watchQueueing(async (calls) => {
    if (calls.length <= subscriberQueues.length) await gate;
  });
  /** Each call's carried event ids. */
  const calls = {
    get length() {
      return watched.calls.length;
    },
    slice: (from: number) => watched.calls.slice(from).map((jobs) => jobs.flatMap(carriedEventIds)),
  };
  const append = () => host.run(() => handing.append('organization.created', organizationCreated()));
  /** Resolves once the first hand-off's adds are all waiting. */
  const firstHeld = () => eventually(async () => (watched.calls.length >= subscriberQueues.length ? true : undefined));
  const done = async () => {
    release();
    watched.restore();
    await handed.stop();
  };
  return { handed, append, calls, firstHeld, release: () => release(), done };
}

describe('OutboxRelay', () => {
  it("adds each committed event to every subscriber's event queue under its event id, then marks it published", async () => {
    // Alone in the outbox, so it goes as a job of its own.
    await relay.drain();
    const event = await appendCommitted();

    expect(await relay.drain()).toBeGreaterThanOrEqual(1);

    expect(subscriberQueues.length).toBeGreaterThan(0);
    for (const queue of subscriberQueues) {
      const job = await queue.getJob(event.id);
      expect(job?.id).toBe(event.id);
      expect(job?.name).toBe('organization.created');
      expect(job?.data).toEqual(event);
      // Bounded attempts (EVENT_MAX_ATTEMPTS, about a day) with the capped backoff every event worker knows (event-retry.ts).
      expect(job?.opts).toMatchObject({ attempts: DEFAULT_EVENT_MAX_ATTEMPTS, backoff: { type: EVENT_BACKOFF_TYPE }, removeOnFail: true });
    }
    const row = await outboxRow(event.id);
    expect(row?.published_at).toBeInstanceOf(Date);
    // Nothing is left to publish, so a second pass moves nothing.
    expect(await relay.drain()).toBe(0);
  });

  it('adds events that go out together as one job per subscriber carrying them in order, at most MAX_EVENTS_PER_JOB each', async () => {
    await relay.drain();
    const events: DomainEvent[] = [];
    for (let index = 0; index < MAX_EVENTS_PER_JOB + 1; index += 1) events.push(await appendCommitted());
    const added = watchQueueing();
    try {
      expect(await relay.drain()).toBe(events.length);

      // The outbox's order: by the time written (one instant here), then by id.
      const inOrder = [...events].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(added.calls).toHaveLength(subscriberQueues.length);
      for (const jobs of added.calls) {
        const [together, alone] = jobs;
        expect(jobs).toHaveLength(2);
        expect(together?.name).toBe(EVENT_BATCH_JOB);
        expect((together?.data as EventBatchJobData).events).toEqual(inOrder.slice(0, MAX_EVENTS_PER_JOB));
        expect(together?.opts).toMatchObject({ attempts: DEFAULT_EVENT_MAX_ATTEMPTS, backoff: { type: EVENT_BACKOFF_TYPE }, removeOnComplete: true, removeOnFail: true });
        // The one left over goes alone, as any single event: under its id.
        expect(alone).toMatchObject({ name: 'organization.created', data: inOrder[MAX_EVENTS_PER_JOB], opts: { jobId: inOrder[MAX_EVENTS_PER_JOB]?.id } });
      }
      for (const queue of subscriberQueues) {
        for (const event of events) expect((await queuedEvent(queue, event.id))?.event).toEqual(event);
      }
    } finally {
      added.restore();
    }
  });

  it('publishes a commit by itself once started (the commit nudges it)', async () => {
    const running = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger, pollIntervalMs: 60000 });
    const nudged = new PrismaEventOutbox(host, 'organization', SCHEMA, new FixedClock(), () => running.kick());
    running.start();
    try {
      const event = await host.run(() => nudged.append('organization.created', organizationCreated()));
      const job = await eventually(() => ledgerEvents.getJob(event.id));
      expect(job.data).toEqual(event);
      await eventually(async () => ((await outboxRow(event.id))?.published_at ? true : undefined));
    } finally {
      await running.stop();
    }
  });

  it('takes the events a commit hands over straight to their queues, those of one turn together, with no poll', async () => {
    // Never started: no poll runs, so only the hand-off can publish.
    const handed = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger });
    const handing = new PrismaEventOutbox(host, 'organization', SCHEMA, new FixedClock(), (event) => handed.handOff(event));
    const added = watchQueueing();
    try {
      const events = await Promise.all([1, 2, 3].map(() => host.run(() => handing.append('organization.created', organizationCreated()))));
      for (const event of events) {
        expect((await eventually(() => queuedEvent(ledgerEvents, event.id))).event).toEqual(event);
        await eventually(async () => ((await outboxRow(event.id))?.published_at ? true : undefined));
      }
      // One call per subscriber queue for all three at most, one per commit at worst: never one per event and queue.
      expect(added.calls.flatMap((jobs) => jobs.flatMap(carriedEventIds))).toEqual(expect.arrayContaining(events.map((event) => event.id)));
      expect(added.calls.length).toBeLessThanOrEqual(events.length * subscriberQueues.length);
    } finally {
      added.restore();
      await handed.stop();
    }
  });

  it('marks the rows of the events handed off within a while published with one UPDATE, and stop marks those still waiting', async () => {
    // A while longer than the test: only stop marks them.
    const handed = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger, markPublishedAfterMs: 60_000 });
    const handing = new PrismaEventOutbox(host, 'organization', SCHEMA, new FixedClock(), (event) => handed.handOff(event));
    const events: DomainEvent[] = [];
    const statements = await statementsDuring(async () => {
      try {
        for (let index = 0; index < 3; index += 1) {
          const event = await host.run(() => handing.append('organization.created', organizationCreated()));
          // Out in its queue before the next commit: three hand-offs, one after another.
          expect((await eventually(() => queuedEvent(ledgerEvents, event.id))).event).toEqual(event);
          events.push(event);
        }
        for (const event of events) expect((await outboxRow(event.id))?.published_at).toBeNull();
      } finally {
        await handed.stop();
      }
    });
    for (const event of events) expect((await outboxRow(event.id))?.published_at).toBeInstanceOf(Date);
    expect(statements.filter((text) => text.startsWith(`UPDATE "${SCHEMA}"."outbox_events"`))).toHaveLength(1);
  });

  it('starts a hand-off no sooner than the linger after the one before: the commits made meanwhile go out together (stop sends them at once)', async () => {
    // A linger longer than the test: the second hand-off waits for stop.
    const handed = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger, handOffLingerMs: 60_000 });
    const handing = new PrismaEventOutbox(host, 'organization', SCHEMA, new FixedClock(), (event) => handed.handOff(event));
    const append = () => host.run(() => handing.append('organization.created', organizationCreated()));
    const added = watchQueueing();
    try {
      // The first goes out at once: no hand-off before it.
      const first = await append();
      expect((await eventually(() => queuedEvent(ledgerEvents, first.id))).event).toEqual(first);
      const later = [await append(), await append()];
      expect(added.calls).toHaveLength(subscriberQueues.length);
      for (const event of later) expect(await queuedEvent(ledgerEvents, event.id)).toBeUndefined();

      await handed.stop();
      for (const event of later) expect((await queuedEvent(ledgerEvents, event.id))?.event).toEqual(event);
      // Both in one call per subscriber queue.
      expect(added.calls).toHaveLength(2 * subscriberQueues.length);
      for (const jobs of added.calls.slice(subscriberQueues.length)) expect(jobs.flatMap(carriedEventIds).sort()).toEqual(later.map((event) => event.id).sort());
    } finally {
      added.restore();
      await handed.stop();
    }
  });

  it('takes the events committed while a hand-off runs together in the next one', async () => {
    const relay = relayWithFirstHandOffHeld();
    try {
      const first = await relay.append();
      await relay.firstHeld();
      const later = await Promise.all([1, 2, 3, 4].map(() => relay.append()));
      relay.release();
      for (const event of [first, ...later]) {
        expect((await eventually(() => queuedEvent(ledgerEvents, event.id))).event).toEqual(event);
        await eventually(async () => ((await outboxRow(event.id))?.published_at ? true : undefined));
      }
      expect(relay.calls).toHaveLength(2 * subscriberQueues.length);
      for (const ids of relay.calls.slice(subscriberQueues.length)) expect([...ids].sort()).toEqual(later.map((event) => event.id).sort());
    } finally {
      await relay.done();
    }
  });

  it('after a hand-off of many events, starts the next no sooner than the busy linger', async () => {
    // No linger after a hand-off of few events, one longer than the test after one of many.
    const relay = relayWithFirstHandOffHeld({ handOffLingerMs: 0, busyHandOffLingerMs: 60_000 });
    try {
      const first = await relay.append();
      await relay.firstHeld();
      // Committed while the first hand-off (one event) runs: the next one carries them all.
      const many = await Promise.all(Array.from({ length: BUSY_HAND_OFF_EVENTS }, () => relay.append()));
      relay.release();
      for (const event of [first, ...many]) expect((await eventually(() => queuedEvent(ledgerEvents, event.id))).event).toEqual(event);
      expect(relay.calls.slice(subscriberQueues.length).map((ids) => [...ids].sort())).toEqual(subscriberQueues.map(() => many.map((event) => event.id).sort()));

      // After those many, the next commit waits for the busy linger (here: for stop).
      const after = await relay.append();
      expect(await queuedEvent(ledgerEvents, after.id)).toBeUndefined();
      await relay.handed.stop();
      expect((await queuedEvent(ledgerEvents, after.id))?.event).toEqual(after);
    } finally {
      await relay.done();
    }
  });

  it('after a hand-off of few events, starts the next without the busy linger', async () => {
    const relay = relayWithFirstHandOffHeld({ handOffLingerMs: 0, busyHandOffLingerMs: 60_000 });
    try {
      const first = await relay.append();
      await relay.firstHeld();
      relay.release();
      expect((await eventually(() => queuedEvent(ledgerEvents, first.id))).event).toEqual(first);
      // Out on its own, long before the busy linger would let it.
      const next = await relay.append();
      expect((await eventually(() => queuedEvent(ledgerEvents, next.id))).event).toEqual(next);
    } finally {
      await relay.done();
    }
  });

  it('stops only once the events handed over while a hand-off ran are out too', async () => {
    const relay = relayWithFirstHandOffHeld();
    try {
      const first = await relay.append();
      await relay.firstHeld();
      const waiting = await relay.append();
      const stopped = relay.handed.stop();
      relay.release();
      await stopped;
      // Both out before stop resolved: nothing left for the next process's poll.
      for (const event of [first, waiting]) {
        expect((await ledgerEvents.getJob(event.id))?.data).toEqual(event);
        expect((await outboxRow(event.id))?.published_at).toBeInstanceOf(Date);
      }
    } finally {
      await relay.done();
    }
  });

  it("leaves an event to its writer's hand-off while it is younger than the poll's grace, then takes it", async () => {
    await relay.drain();
    const graced = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger, pollGraceMs: 400 });
    // Written now (the real clock), and never handed off.
    const unhanded = new PrismaEventOutbox(host, 'organization', SCHEMA, new SystemClock(), () => undefined);
    try {
      const event = await host.run(() => unhanded.append('organization.created', organizationCreated()));
      expect(await graced.drain()).toBe(0);
      expect((await outboxRow(event.id))?.published_at).toBeNull();
      expect(await queuedEvent(ledgerEvents, event.id)).toBeUndefined();

      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(await graced.drain()).toBe(1);
      expect((await queuedEvent(ledgerEvents, event.id))?.event).toEqual(event);
      expect((await outboxRow(event.id))?.published_at).toBeInstanceOf(Date);
    } finally {
      await graced.stop();
    }
  });

  it('leaves an event whose hand-off never happened (a crash right after commit) to the poll, which delivers it once', async () => {
    // The process "crashed" between commit and hand-off: nothing was handed over.
    const crashed = new PrismaEventOutbox(host, 'organization', SCHEMA, new FixedClock(), () => undefined);
    const event = await host.run(() => crashed.append('organization.created', organizationCreated()));
    expect((await outboxRow(event.id))?.published_at).toBeNull();
    expect(await ledgerEvents.getJob(event.id)).toBeUndefined();
    // The next process's poll.
    expect(await relay.drain()).toBeGreaterThanOrEqual(1);
    expect((await ledgerEvents.getJob(event.id))?.data).toEqual(event);
    // A late hand-off of the same event as well: still one job, which the subscriber's inbox takes once.
    const late = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger });
    late.handOff(event);
    await late.stop();
    expect((await ledgerEvents.getJobs(['waiting', 'active', 'completed', 'delayed'])).filter((job) => job.id === event.id)).toHaveLength(1);
  });
});

describe('EventConsumer behind the relay', () => {
  beforeAll(async () => {
    await consumer.start();
  });

  it('applies an event once, however often it is relayed or redelivered', async () => {
    const event = await appendCommitted();
    await relay.drain();
    await eventually(async () => ((await effectCount(event.id)) === 1 ? true : undefined));

    // A second relay pass has nothing to publish.
    expect(await relay.drain()).toBe(0);

    // Crash between publish and mark: the row is published again. While the job is still
    // retained, BullMQ keeps it (same job id); once it is gone, it is delivered again and the
    // inbox turns it into a no-op.
    await prisma.$executeRaw`UPDATE "quote"."outbox_events" SET published_at = NULL WHERE id = ${event.id}`;
    expect(await relay.drain()).toBe(1);
    await (await ledgerEvents.getJob(event.id))?.remove();
    await prisma.$executeRaw`UPDATE "quote"."outbox_events" SET published_at = NULL WHERE id = ${event.id}`;
    const duplicatesBefore = outcomes.filter((outcome) => outcome === 'duplicate').length;
    expect(await relay.drain()).toBe(1);

    await eventually(async () => (outcomes.filter((outcome) => outcome === 'duplicate').length > duplicatesBefore ? true : undefined));
    expect(handled.filter((id) => id === event.id)).toHaveLength(1);
    expect(await effectCount(event.id)).toBe(1);
    expect(await inboxCount(event.id)).toBe(1);
  });

  it('lets exactly one of several concurrent deliveries of the same event through', async () => {
    const event = envelope();

    const results = await Promise.all([consumer.handle(event), consumer.handle(event), consumer.handle(event)]);

    expect([...results].sort()).toEqual(['duplicate', 'duplicate', 'ok']);
    expect(await effectCount(event.id)).toBe(1);
    expect(await inboxCount(event.id)).toBe(1);
  });

  it('rolls the inbox row back with the effect when the handler throws', async () => {
    const event = envelope();
    failuresLeft.set(event.id, 1);

    await expect(consumer.handle(event)).rejects.toThrow('subscriber crashed');
    expect(await inboxCount(event.id)).toBe(0);
    expect(await effectCount(event.id)).toBe(0);

    // So the next delivery runs the effect rather than skipping it as a duplicate.
    await expect(consumer.handle(event)).resolves.toBe('ok');
    expect(await effectCount(event.id)).toBe(1);
    expect(await inboxCount(event.id)).toBe(1);
  });

  it('retries a failing handler through the queue until the effect is applied once', async () => {
    const event = await appendCommitted();
    failuresLeft.set(event.id, 2);

    await relay.drain();

    await eventually(async () => ((await effectCount(event.id)) === 1 ? true : undefined), 15000);
    const job = await ledgerEvents.getJob(event.id);
    await eventually(async () => ((await job?.getState()) === 'completed' ? true : undefined));
    // Two failed attempts and the one that succeeded.
    expect(handled.filter((id) => id === event.id)).toHaveLength(3);
    expect(await effectCount(event.id)).toBe(1);
    expect(await inboxCount(event.id)).toBe(1);
  });
});
