import { Queue } from 'bullmq';
import { EVENT_BATCH_JOB, eventQueueName, type EventBatchJobData, type EventEnvelope } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import { createRedisConnection, eventBatchJobOptions, EventConsumer, PrismaProcessedEventLog, type EventHandler } from '../src';
import { committed, createdEvent } from './support/ledger-inbox';
import { otherLedgerHandlers } from './support/other-ledger-events';

const prefix = isolateQueues('msg-batches');

/*
 * A busy subscriber commits the events it took meanwhile in one transaction, and one bad event
 * never holds the rest back: on the real PostgreSQL (the `ledger` schema's inbox) and Redis.
 * The handler writes a row of its own (a `processed_events` row under a derived id) in the
 * event's transaction, so what committed is read back from the database.
 */

const config = readPlatformConfig();
const logger = createLogger('batches-test', 'silent');
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma);
const redis = createRedisConnection(config.redisUrl, 'batches-test');
const ledgerEvents = new Queue(eventQueueName('ledger'), { connection: redis, prefix });

/** Names of organizations whose event the handler refuses (a poisoned event). */
const poisoned = new Set<string>();
/** The transaction each handled event ran in, by event id. */
const transactionOf = new Map<string, unknown>();

const effectId = (eventId: string) => `effect-${eventId}`;

class RecordingSubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;

  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    transactionOf.set(event.id, host.client);
    await host.client.$executeRaw`INSERT INTO "ledger"."processed_events" (event_id) VALUES (${effectId(event.id)})`;
    if (poisoned.has(event.data.name)) throw new Error(`refusing ${event.data.name}`);
  }
}

const consumer = new EventConsumer('ledger', [new RecordingSubscriber(), ...otherLedgerHandlers('organization.created')], new PrismaUnitOfWork(host), new PrismaProcessedEventLog(host, 'ledger'), {
  redisUrl: config.redisUrl,
  prefix,
  logger,
  concurrency: 8,
});


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

describe('event batches', () => {
  it('handles a batch in one transaction: every event, its inbox row and its effect commit together', async () => {
    const events = [createdEvent('batch a'), createdEvent('batch b'), createdEvent('batch c')];
    expect(await consumer.handleAll(events)).toEqual(['ok', 'ok', 'ok']);
    expect(new Set(events.map((event) => transactionOf.get(event.id))).size).toBe(1);
    expect(transactionOf.get(events[0]!.id)).not.toBe(prisma);
    const ids = events.map((event) => event.id);
    expect(await committed(prisma, [...ids, ...ids.map(effectId)])).toEqual([...ids, ...ids.map(effectId)].sort());
    // Delivered again (a redelivery after a crash before the jobs completed): duplicates, nothing twice.
    expect(await consumer.handleAll(events)).toEqual(['duplicate', 'duplicate', 'duplicate']);
  });

  it('applies an event delivered twice within one batch once, and one handled before as a duplicate', async () => {
    const seen = createdEvent('seen before');
    const fresh = createdEvent('twice in the batch');
    expect(await consumer.handleAll([seen])).toEqual(['ok']);
    expect(await consumer.handleAll([seen, fresh, fresh])).toEqual(['duplicate', 'ok', 'duplicate']);
    expect(await committed(prisma, [effectId(seen.id), effectId(fresh.id)])).toEqual([effectId(seen.id), effectId(fresh.id)].sort());
  });

  it('one poisoned event fails alone: the batch falls back to a transaction per event and the others commit', async () => {
    poisoned.add('batch poisoned');
    const [first, bad, last] = [createdEvent('batch first'), createdEvent('batch poisoned'), createdEvent('batch last')];
    const results = await consumer.handleAll([first!, bad!, last!]);
    expect(results[0]).toBe('ok');
    expect(results[1]).toBeInstanceOf(Error);
    expect((results[1] as Error).message).toBe('refusing batch poisoned');
    expect(results[2]).toBe('ok');
    // Each good event ran again in its own transaction, apart from the other.
    expect(transactionOf.get(first!.id)).not.toBe(transactionOf.get(last!.id));
    const ids = [first!.id, bad!.id, last!.id];
    expect(await committed(prisma, [...ids, ...ids.map(effectId)])).toEqual([first!.id, last!.id, effectId(first!.id), effectId(last!.id)].sort());
  });

  it('through the queue: the events of one job of several, taken alone, commit in one transaction', async () => {
    const together = Array.from({ length: 5 }, (_, index) => createdEvent(`together ${index}`));
    const data: EventBatchJobData = { events: together };
    await ledgerEvents.add(EVENT_BATCH_JOB, data, eventBatchJobOptions(together.map((event) => event.id), 3));
    await eventually(async () => ((await committed(prisma, together.map((event) => effectId(event.id)))).length === together.length ? true : undefined), 20000);
    expect(new Set(together.map((event) => transactionOf.get(event.id))).size).toBe(1);
  });

  it('through the queue: a burst is handled in fewer transactions than events, each event once; a poisoned one is retried while the rest complete', async () => {
    poisoned.add('burst poisoned');
    const burst = Array.from({ length: 40 }, (_, index) => createdEvent(index === 17 ? 'burst poisoned' : `burst ${index}`));
    await ledgerEvents.addBulk(burst.map((event) => ({ name: event.type, data: event, opts: { jobId: event.id, attempts: 3, backoff: { type: 'fixed', delay: 50 } } })));
    const good = burst.filter((event) => event.data.name !== 'burst poisoned');
    await eventually(async () => ((await committed(prisma, good.map((event) => event.id))).length === good.length ? true : undefined), 20000);
    const bad = burst[17]!;
    await eventually(async () => ((await ledgerEvents.getJob(bad.id))?.attemptsMade === 3 || (await ledgerEvents.getJob(bad.id)) === undefined ? true : undefined), 20000);
    expect(await committed(prisma, [bad.id, effectId(bad.id)])).toEqual([]);
    expect(await committed(prisma, good.map((event) => effectId(event.id)))).toHaveLength(good.length);
    // Forty jobs at a concurrency of 8 with two batches at a time: some shared a transaction.
    expect(new Set(good.map((event) => transactionOf.get(event.id))).size).toBeLessThan(good.length);
  });
});
