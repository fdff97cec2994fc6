import type { EventEnvelope } from '@pfs/contracts';
import { createPrismaClient, Prisma, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, readPlatformConfig } from '@pfs/platform';
import { isolateQueues, statementsDuring } from '@pfs/testing';
import { EventConsumer, PrismaProcessedEventLog, type EventHandler } from '../src';
import { committed, createdEvent } from './support/ledger-inbox';
import { otherLedgerHandlers } from './support/other-ledger-events';

const prefix = isolateQueues('msg-planned-batches');

/*
 * A subscriber whose handler plans (reads first, then answers its writes) has a batch written in
 * one statement with its inbox rows, holding no transaction while it reads; anything refused sends
 * the batch the usual way. On the real PostgreSQL (the `ledger` schema's inbox): the handler's
 * effect is a `processed_events` row under a derived id.
 */

const config = readPlatformConfig();
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma);
const effectId = (eventId: string) => `planned-effect-${eventId}`;
/** Names whose planned write the database refuses (the effect row is written twice in one statement). */
const refusedInPlan = new Set<string>();
/** Names whose plan has nothing to write. */
const nothingToWrite = new Set<string>();
const handled: string[] = [];
/** Plans reading at the same time, now and at most. */
let planning = 0;
let mostPlanning = 0;

class PlanningSubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;
  /** Read through `this`, as a handler's use case is: the consumer calls `plan` on its handler. */
  private readonly reads = Prisma.sql`SELECT 1`;

  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    handled.push(event.id);
    await host.client.$executeRaw`INSERT INTO "ledger"."processed_events" (event_id) VALUES (${effectId(event.id)})`;
  }

  async plan(event: EventEnvelope<'organization.created'>): Promise<(() => Promise<void>) | null> {
    // A read before the batch's statement, on no transaction.
    planning += 1;
    mostPlanning = Math.max(mostPlanning, planning);
    await host.client.$queryRaw(this.reads).finally(() => (planning -= 1));
    if (nothingToWrite.has(event.data.name)) return null;
    const times = refusedInPlan.has(event.data.name) ? 2 : 1;
    return async () => {
      for (let i = 0; i < times; i += 1) {
        await host.write({ ctes: (p) => [Prisma.sql`${Prisma.raw(p)} AS (INSERT INTO "ledger"."processed_events" (event_id) VALUES (${effectId(event.id)}))`] });
      }
    };
  }
}

const consumer = new EventConsumer('ledger', [new PlanningSubscriber(), ...otherLedgerHandlers('organization.created')], new PrismaUnitOfWork(host), new PrismaProcessedEventLog(host, 'ledger'), {
  redisUrl: config.redisUrl,
  prefix,
  logger: createLogger('planned-batches-test', 'silent'),
});


afterAll(async () => {
  await consumer.close();
  await prisma.$disconnect();
});

describe('planned event batches', () => {
  it('write a batch, its inbox rows and every effect, in one statement after the reads, with no transaction', async () => {
    const events = [createdEvent('planned a'), createdEvent('planned b'), createdEvent('planned c')];
    let results: unknown;
    const sent = await statementsDuring(async () => {
      results = await consumer.handleAll(events);
    });
    expect(results).toEqual(['ok', 'ok', 'ok']);
    expect(sent).toEqual(['SELECT 1', 'SELECT 1', 'SELECT 1', 'WITH w0 AS']);
    // Every event's reads at once, so reads by key (batchedReads) can share a statement.
    expect(mostPlanning).toBe(3);
    const ids = events.map((event) => event.id);
    expect(await committed(prisma, [...ids, ...ids.map(effectId)])).toEqual([...ids, ...ids.map(effectId)].sort());
    expect(handled.filter((id) => ids.includes(id))).toEqual([]);
  });

  it('an event whose plan has nothing to write gets no inbox row, and a batch of only such events sends no statement but its reads', async () => {
    nothingToWrite.add('planned nothing');
    const idle = createdEvent('planned nothing');
    const sent = await statementsDuring(async () => {
      expect(await consumer.handleAll([idle])).toEqual(['ok']);
    });
    expect(sent).toEqual(['SELECT 1']);
    const busy = createdEvent('planned beside nothing');
    expect(await consumer.handleAll([idle, busy])).toEqual(['ok', 'ok']);
    expect(await committed(prisma, [idle.id, busy.id, effectId(idle.id), effectId(busy.id)])).toEqual([busy.id, effectId(busy.id)].sort());
    expect(handled).not.toContain(idle.id);
  });

  it('a batch with an event handled before is refused whole and handled the usual way: that one a duplicate, the others once', async () => {
    const seen = createdEvent('planned seen');
    expect(await consumer.handleAll([seen])).toEqual(['ok']);
    const [fresh, later] = [createdEvent('planned fresh'), createdEvent('planned later')];
    expect(await consumer.handleAll([fresh, seen, later])).toEqual(['ok', 'duplicate', 'ok']);
    expect(await committed(prisma, [effectId(seen.id), effectId(fresh.id), effectId(later.id)])).toEqual([effectId(seen.id), effectId(fresh.id), effectId(later.id)].sort());
    expect(handled).toEqual(expect.arrayContaining([fresh.id, later.id]));
    expect(handled).not.toContain(seen.id);
  });

  it('a write the database refuses sends the batch the usual way, where every event commits once', async () => {
    refusedInPlan.add('planned refused');
    const events = [createdEvent('planned before'), createdEvent('planned refused')];
    expect(await consumer.handleAll(events)).toEqual(['ok', 'ok']);
    const ids = events.map((event) => event.id);
    expect(await committed(prisma, [...ids, ...ids.map(effectId)])).toEqual([...ids, ...ids.map(effectId)].sort());
    expect(handled).toEqual(expect.arrayContaining(ids));
  });

  it('an event no handler of this subscriber takes fails alone, on the usual way, and the rest commit', async () => {
    const planned = createdEvent('planned beside a stranger');
    const stranger = { ...createdEvent('stranger'), type: 'webhook-message.created' } as unknown as EventEnvelope;
    const results = await consumer.handleAll([planned, stranger]);
    expect(results[0]).toBe('ok');
    expect(results[1]).toBeInstanceOf(Error);
    expect(await committed(prisma, [effectId(planned.id)])).toEqual([effectId(planned.id)]);
  });
});
