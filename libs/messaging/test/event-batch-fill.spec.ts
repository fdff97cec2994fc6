import { Queue } from 'bullmq';
import { eventQueueName, type EventEnvelope } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import { createRedisConnection, EventConsumer, PrismaProcessedEventLog, type EventHandler } from '../src';
import { committed, createdEvent } from './support/ledger-inbox';
import { otherLedgerHandlers } from './support/other-ledger-events';

const prefix = isolateQueues('msg-batch-fill');

/*
 * With its default concurrency a busy consumer takes enough events from the queue to fill the
 * batches it runs: while both batches in flight are held, the events that come meanwhile are all
 * taken, and then committed in full batches rather than a few at a time.
 */

const config = readPlatformConfig();
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma);
const redis = createRedisConnection(config.redisUrl, 'batch-fill-test');
const ledgerEvents = new Queue(eventQueueName('ledger'), { connection: redis, prefix });

let release = () => {};
const held = new Promise<void>((resolve) => (release = resolve));
let holding = 0;
const transactionOf = new Map<string, unknown>();

class HoldingSubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;

  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    transactionOf.set(event.id, host.client);
    if (event.data.name.startsWith('hold')) {
      holding += 1;
      await held;
    }
  }
}

// No concurrency given: the default.
const consumer = new EventConsumer('ledger', [new HoldingSubscriber(), ...otherLedgerHandlers('organization.created')], new PrismaUnitOfWork(host), new PrismaProcessedEventLog(host, 'ledger'), {
  redisUrl: config.redisUrl,
  prefix,
  logger: createLogger('batch-fill-test', 'silent'),
});

afterAll(async () => {
  release();
  await consumer.close();
  await ledgerEvents.obliterate({ force: true });
  await ledgerEvents.close();
  redis.disconnect();
  await prisma.$disconnect();
});

it('takes the events that arrive while its batches run, and commits them in full batches', async () => {
  await consumer.start();
  const holds = [createdEvent('hold 1'), createdEvent('hold 2')];
  for (const event of holds) await ledgerEvents.add(event.type, event, { jobId: event.id });
  // Both batches in flight are held, each by one event.
  await eventually(async () => (holding === 2 ? true : undefined), 20000);
  const burst = Array.from({ length: 40 }, (_, index) => createdEvent(`burst ${index}`));
  await ledgerEvents.addBulk(burst.map((event) => ({ name: event.type, data: event, opts: { jobId: event.id } })));
  // All forty taken from the queue while the batches are held: they wait in the consumer.
  await eventually(async () => ((await ledgerEvents.getActiveCount()) === 42 ? true : undefined), 20000);
  release();
  await eventually(async () => ((await committed(prisma, [...holds, ...burst].map((event) => event.id))).length === 42 ? true : undefined), 20000);
  // Forty events in two transactions: a batch of 32 and one of the 8 left.
  expect(new Set(burst.map((event) => transactionOf.get(event.id))).size).toBe(2);
});
