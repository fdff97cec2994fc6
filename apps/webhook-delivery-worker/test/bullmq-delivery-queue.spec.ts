import { createPrismaClient, PrismaTransactionHost, type PrismaClient } from '@pfs/persistence';
import { createLogger } from '@pfs/platform';
import { isolateQueues, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BullmqDeliveryQueue, deliveryJobId, WEBHOOK_DELIVERY_QUEUE } from '../src/adapters/messaging/bullmq-delivery.queue';

const prefix = isolateQueues('dlv-queue');

/* Redis is only the transport: after a partial loss of its data the sweeper must still get every due delivery queued. */
describe('BullmqDeliveryQueue (real Redis)', () => {
  let prisma: PrismaClient;
  let redis: Redis;
  let connection: Redis;
  let queue: Queue;
  let deliveries: BullmqDeliveryQueue;
  const due = (deliveryId: string) => ({ deliveryId, endpointId: 'ep_1', attemptsMade: 1, dueAt: new Date(Date.now() + 60_000) });

  beforeAll(async () => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'dlv-queue-spec' });
    redis = new Redis(testRedisUrl());
    connection = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    queue = new Queue(WEBHOOK_DELIVERY_QUEUE, { connection, prefix });
    deliveries = new BullmqDeliveryQueue(new PrismaTransactionHost(prisma), queue, createLogger('dlv-queue-spec', 'silent'));
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
    redis.disconnect();
    await prisma.$disconnect();
  });

  it('adds each delivery once, delayed until due: the same step queued again is not doubled', async () => {
    const first = due('dlv_once');
    await deliveries.enqueue([first]);
    await deliveries.requeue([first]);
    expect(await queue.getJobState(deliveryJobId(first))).toBe('delayed');
    expect((await queue.getDelayed()).filter((job) => job.data.deliveryId === 'dlv_once')).toHaveLength(1);
  });

  it('requeue replaces a job whose hash outlived its list entry; enqueue alone would leave it stranded', async () => {
    const stranded = due('dlv_stranded');
    await deliveries.enqueue([stranded]);
    // A partial loss: the delayed set goes, the job's hash stays.
    await redis.del(queue.toKey('delayed'));
    expect(await queue.getJobState(deliveryJobId(stranded))).toBe('unknown');
    await deliveries.enqueue([stranded]);
    expect(await queue.getJobState(deliveryJobId(stranded))).toBe('unknown');

    await deliveries.requeue([stranded]);
    expect(await queue.getJobState(deliveryJobId(stranded))).toBe('delayed');
    const job = await queue.getJob(deliveryJobId(stranded));
    expect(job?.data).toEqual({ deliveryId: 'dlv_stranded', endpointId: 'ep_1', attemptsMade: 1, dueAt: stranded.dueAt.getTime() });
  });
});
