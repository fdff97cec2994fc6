import { Queue } from 'bullmq';
import { Clock, eventQueueName, newId, type DomainEvent, type EventContract, type EventEnvelope } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import {
  createRedisConnection,
  EventConsumer,
  PrismaEventOutbox,
  PrismaProcessedEventLog,
  type EventHandler,
} from '../src';
import { otherLedgerHandlers } from './support/other-ledger-events';

const prefix = isolateQueues('msg-ordered');

/*
 * Order per aggregate, end to end on the real PostgreSQL and Redis: events written by the
 * organization schema's outbox (which numbers them), delivered on the ledger's event queue (this
 * file's own queue prefix) to a subscriber whose inbox is the `ledger` schema. The relay is left
 * out, so the test chooses the delivery order: the newer event first, the older one late.
 */

const NOW = new Date('2026-11-23T09:00:00.000Z');

class FixedClock extends Clock {
  now(): Date {
    return NOW;
  }
}

const config = readPlatformConfig();
const logger = createLogger('ordered-test', 'silent');
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma);
const outbox = new PrismaEventOutbox(host, 'organization', 'organization', new FixedClock());
const redis = createRedisConnection(config.redisUrl, 'ordered-test');
const ledgerEvents = new Queue(eventQueueName('ledger'), { connection: redis, prefix });

/** What an ordered subscriber keeps: the latest name it has seen per organization. */
const latestName = new Map<string, string>();
const applied: Array<[string, number]> = [];

class LatestNameSubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;
  readonly ordered = true;

  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    latestName.set(event.aggregateId, event.data.name);
    applied.push([event.id, event.sequence]);
  }
}

const consumer = new EventConsumer('ledger', [new LatestNameSubscriber(), ...otherLedgerHandlers('organization.created')], new PrismaUnitOfWork(host), new PrismaProcessedEventLog(host, 'ledger'), {
  redisUrl: config.redisUrl,
  prefix,
  logger,
});
// What the metrics count (queue_jobs_processed_total{outcome}).
const outcomes: string[] = [];
consumer.onOutcome = (outcome) => outcomes.push(outcome);

function created(organizationId: string, name: string): EventContract['organization.created'] {
  return { organizationId, primaryAccountId: newId('account'), name, parentOrganizationId: null, referrerOrganizationId: null, createdAt: NOW.toISOString() };
}

/**
 * Writes the events through the outbox in one transaction (so they are numbered 1, 2, …) and
 * marks them published in it too: no other relay sharing this database ever sees them.
 */
async function written(...data: Array<EventContract['organization.created']>): Promise<DomainEvent[]> {
  return host.run(async () => {
    const events: DomainEvent[] = [];
    for (const item of data) events.push(await outbox.append('organization.created', item));
    await host.client.$executeRaw`UPDATE "organization"."outbox_events" SET published_at = now() WHERE id = ANY(${events.map((event) => event.id)})`;
    return events;
  });
}

/** Delivers one event on the subscriber's queue under its id, and waits until the consumer has finished it. */
async function deliver(event: unknown, id = (event as DomainEvent).id): Promise<void> {
  await ledgerEvents.add((event as DomainEvent).type, event, { jobId: id });
  await eventually(async () => ((await (await ledgerEvents.getJob(id))?.getState()) === 'completed' ? true : undefined), 10000);
}

async function inboxHas(eventId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<unknown[]>`SELECT 1 FROM "ledger"."processed_events" WHERE event_id = ${eventId}`;
  return rows.length === 1;
}

async function lastApplied(aggregateId: string): Promise<number | undefined> {
  const rows = await prisma.$queryRaw<Array<{ last_sequence: number }>>`
    SELECT last_sequence FROM "ledger"."applied_sequences"
    WHERE source = 'organization' AND aggregate_id = ${aggregateId} AND event_type = 'organization.created'`;
  return rows[0]?.last_sequence;
}

beforeAll(async () => {
  await consumer.start();
});

afterAll(async () => {
  await consumer.close();
  await ledgerEvents.obliterate({ force: true });
  await ledgerEvents.close();
  redis.disconnect();
  await prisma.$disconnect();
});

describe('an ordered subscriber', () => {
  it('applies the newer event and skips the older one that arrives after it', async () => {
    const organizationId = newId('organization');
    const [older, newer] = await written(created(organizationId, 'Acme (old name)'), created(organizationId, 'Acme (new name)'));
    expect([older.sequence, newer.sequence]).toEqual([1, 2]);

    await deliver(newer);
    await deliver(older);

    expect(latestName.get(organizationId)).toBe('Acme (new name)');
    expect(applied.filter(([id]) => id === older.id || id === newer.id)).toEqual([[newer.id, 2]]);
    expect(outcomes.slice(-2)).toEqual(['ok', 'stale']);
    // The stale event is in the inbox too, so a redelivery is a plain duplicate.
    expect(await inboxHas(older.id)).toBe(true);
    expect(await lastApplied(organizationId)).toBe(2);
    expect(await consumer.handle(older)).toBe('duplicate');
  });

  it('applies events that arrive in order, each aggregate on its own', async () => {
    const first = newId('organization');
    const second = newId('organization');
    const [a1, a2] = await written(created(first, 'First v1'), created(first, 'First v2'));
    const [b1] = await written(created(second, 'Second v1'));

    expect(await consumer.handle(a1)).toBe('ok');
    expect(await consumer.handle(b1)).toBe('ok');
    expect(await consumer.handle(a2)).toBe('ok');

    expect([latestName.get(first), latestName.get(second)]).toEqual(['First v2', 'Second v1']);
    expect([await lastApplied(first), await lastApplied(second)]).toEqual([2, 1]);
  });

  it('never lets an older event overwrite a newer one delivered at the same time', async () => {
    const organizationId = newId('organization');
    const [older, newer] = await written(created(organizationId, 'Racing v1'), created(organizationId, 'Racing v2'));

    const results = await Promise.all([consumer.handle(newer), consumer.handle(older)]);

    // Whichever commits first, the older one never overwrites the newer.
    expect(latestName.get(organizationId)).toBe('Racing v2');
    expect(await lastApplied(organizationId)).toBe(2);
    expect(results[0]).toBe('ok');
    expect(['ok', 'stale']).toContain(results[1]);
  });

  it('applies an event of the previous release (sequence 0) unless a numbered one was applied', async () => {
    const fresh = newId('organization');
    const { aggregateId: _fresh, sequence: _zero, ...previousRelease } = (await written(created(fresh, 'Legacy')))[0];
    await deliver(previousRelease);
    expect(latestName.get(fresh)).toBe('Legacy');
    expect(await lastApplied(fresh)).toBeUndefined();

    const known = newId('organization');
    const [numbered] = await written(created(known, 'Numbered'));
    await deliver(numbered);
    const { aggregateId: _known, sequence: _none, ...late } = { ...numbered, id: newId('event'), data: { ...numbered.data, name: 'Legacy, late' } };
    await deliver(late);
    expect(latestName.get(known)).toBe('Numbered');
  });
});

describe('an unordered subscriber (every one today)', () => {
  it('still applies an older event that arrives late', async () => {
    const everyEvent: number[] = [];
    const unordered = new EventConsumer(
      'ledger',
      [{ event: 'organization.created', handle: async (event: EventEnvelope<'organization.created'>) => void everyEvent.push(event.sequence) }, ...otherLedgerHandlers('organization.created')],
      new PrismaUnitOfWork(host),
      new PrismaProcessedEventLog(host, 'ledger'),
      { redisUrl: config.redisUrl, prefix, logger },
    );
    const organizationId = newId('organization');
    const [older, newer] = await written(created(organizationId, 'Unordered v1'), created(organizationId, 'Unordered v2'));

    expect(await unordered.handle(newer)).toBe('ok');
    expect(await unordered.handle(older)).toBe('ok');

    expect(everyEvent).toEqual([2, 1]);
    const rows = await prisma.$queryRaw<unknown[]>`SELECT 1 FROM "ledger"."applied_sequences" WHERE aggregate_id = ${organizationId}`;
    expect(rows).toEqual([]);
    await unordered.close();
  });
});
