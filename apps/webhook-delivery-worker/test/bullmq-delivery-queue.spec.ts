import { createPrismaClient, PrismaTransactionHost, type PrismaClient } from '@pfs/persistence';
import { createLogger } from '@pfs/platform';
import { isolateQueues, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BullmqDeliveryQueue, deliveryJobId, sweptAttemptId, WEBHOOK_DELIVERY_QUEUE } from '../src/adapters/messaging/bullmq-delivery.queue';

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

  it('first attempts queued together go one job per endpoint, under its first delivery’s id; retries go one job each', async () => {
    const now = new Date(Date.now() - 1000);
    const first = (deliveryId: string, endpointId: string) => ({ deliveryId, endpointId, attemptsMade: 0, dueAt: now });
    const retry = { deliveryId: 'dlv_g_retry', endpointId: 'ep_g_a', attemptsMade: 2, dueAt: new Date(Date.now() + 60_000) };
    // Two messages' deliveries, queued in the same turn (as a batch of messages recorded together is).
    await Promise.all([
      deliveries.enqueue([first('dlv_g_1', 'ep_g_a'), first('dlv_g_2', 'ep_g_b')]),
      deliveries.enqueue([first('dlv_g_3', 'ep_g_a'), first('dlv_g_4', 'ep_g_b'), retry]),
    ]);
    const jobs = [...(await queue.getWaiting()), ...(await queue.getDelayed())].filter((job) => String(job.data.endpointId).startsWith('ep_g_'));
    const byId = new Map(jobs.map((job) => [job.id, job.data]));
    expect(jobs).toHaveLength(3);
    expect(byId.get(deliveryJobId(first('dlv_g_1', 'ep_g_a')))).toMatchObject({ deliveryId: 'dlv_g_1', endpointId: 'ep_g_a', also: [{ deliveryId: 'dlv_g_3', attemptsMade: 0 }] });
    expect(byId.get(deliveryJobId(first('dlv_g_2', 'ep_g_b')))).toMatchObject({ deliveryId: 'dlv_g_2', endpointId: 'ep_g_b', also: [{ deliveryId: 'dlv_g_4', attemptsMade: 0 }] });
    expect(byId.get(deliveryJobId(retry))).toEqual({ deliveryId: 'dlv_g_retry', endpointId: 'ep_g_a', attemptsMade: 2, dueAt: retry.dueAt.getTime() });
  });

  it('offers each endpoint’s first attempts due now to this process’s worker: what it takes is no job (until it queues it), what it refuses is one; retries are never offered', async () => {
    const now = new Date(Date.now() - 1000);
    const first = (deliveryId: string, endpointId: string) => ({ deliveryId, endpointId, attemptsMade: 0, dueAt: now });
    const retry = { deliveryId: 'dlv_f_retry', endpointId: 'ep_f_a', attemptsMade: 1, dueAt: new Date(Date.now() + 60_000) };
    const offered: Array<{ id: string; queue: () => Promise<void> }> = [];
    deliveries.attemptInProcess({
      attemptHere: (job, queue) => {
        offered.push({ id: job.id, queue });
        return job.data.endpointId === 'ep_f_a';
      },
    });
    try {
      await deliveries.enqueue([first('dlv_f_1', 'ep_f_a'), first('dlv_f_2', 'ep_f_b'), first('dlv_f_3', 'ep_f_a'), retry]);
    } finally {
      deliveries.attemptInProcess(undefined);
    }
    const takenId = deliveryJobId(first('dlv_f_1', 'ep_f_a'));
    const refusedId = deliveryJobId(first('dlv_f_2', 'ep_f_b'));
    expect(offered.map((job) => job.id).sort()).toEqual([takenId, refusedId].sort());
    const jobs = async () => [...(await queue.getWaiting()), ...(await queue.getDelayed())].filter((job) => String(job.data.endpointId).startsWith('ep_f_'));
    expect((await jobs()).map((job) => job.id).sort()).toEqual([refusedId, deliveryJobId(retry)].sort());

    // The worker could not make them after all (no slot, or an attempt threw): the same job, as it would have been queued.
    await offered.find((job) => job.id === takenId)!.queue();
    const taken = await queue.getJob(takenId);
    expect(taken?.data).toMatchObject({ deliveryId: 'dlv_f_1', endpointId: 'ep_f_a', attemptsMade: 0, also: [{ deliveryId: 'dlv_f_3', attemptsMade: 0 }] });
    expect(taken?.opts).toMatchObject({ attempts: 3, removeOnComplete: true });
  });

  it('offers the sweeper’s overdue deliveries to this process’s worker, each alone and under an id of its own: what it takes is no job, what it refuses is queued, and one it hands back replaces a stranded hash', async () => {
    const overdue = (deliveryId: string) => ({ deliveryId, endpointId: 'ep_o', attemptsMade: 0, dueAt: new Date(Date.now() - 30_000) });
    const [taken, refused] = [overdue('dlv_o_taken'), overdue('dlv_o_refused')];
    const offered: Array<{ id: string; data: unknown; queue: () => Promise<void> }> = [];
    deliveries.attemptInProcess({
      attemptHere: (job, queue) => {
        offered.push({ ...job, queue });
        return job.data.deliveryId === 'dlv_o_taken';
      },
    });
    try {
      await deliveries.requeue([taken, refused]);
    } finally {
      deliveries.attemptInProcess(undefined);
    }
    // Under ids of their own, not their jobs': the lease of an attempt made here is never the one its job would take.
    expect(offered.map(({ id, data }) => ({ id, data }))).toEqual([
      { id: sweptAttemptId(deliveryJobId(taken)), data: { deliveryId: 'dlv_o_taken', endpointId: 'ep_o', attemptsMade: 0, dueAt: taken.dueAt.getTime() } },
      { id: sweptAttemptId(deliveryJobId(refused)), data: { deliveryId: 'dlv_o_refused', endpointId: 'ep_o', attemptsMade: 0, dueAt: refused.dueAt.getTime() } },
    ]);
    expect(sweptAttemptId(deliveryJobId(taken))).not.toBe(deliveryJobId(taken));
    expect(await queue.getJobState(deliveryJobId(taken))).toBe('unknown');
    expect(await queue.getJobState(deliveryJobId(refused))).toBe('waiting');

    // The worker could not make it after all: its job goes to the queue, even over a hash left without its list entry.
    await redis.hset(queue.toKey(deliveryJobId(taken)), 'name', 'deliveries.attempt', 'data', '{}');
    expect(await queue.getJobState(deliveryJobId(taken))).toBe('unknown');
    await offered[0]!.queue();
    expect(await queue.getJobState(deliveryJobId(taken))).toBe('waiting');
    expect((await queue.getJob(deliveryJobId(taken)))?.data).toEqual({ deliveryId: 'dlv_o_taken', endpointId: 'ep_o', attemptsMade: 0, dueAt: taken.dueAt.getTime() });
  });
});
