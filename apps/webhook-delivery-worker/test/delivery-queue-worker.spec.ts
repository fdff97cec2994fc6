import { WEBHOOK_DELIVERY_QUEUE } from '@pfs/contracts';
import { createLogger, createMetricsRegistry, WebhookAttemptMetrics } from '@pfs/platform';
import { eventually, isolateQueues, testRedisUrl } from '@pfs/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DeliveryQueueWorker } from '../src/adapters/messaging/delivery-queue.worker';
import type { AttemptDeliveryCommand } from '../src/application/use-cases/attempt-delivery/attempt-delivery.command';
import type { AttemptDeliveryUseCase, AttemptOutcome } from '../src/application/use-cases/attempt-delivery/attempt-delivery.use-case';

const prefix = isolateQueues('dlv-queue-worker');

/* The worker on the real Redis, its use case replaced by a recorder: a job carrying several attempts to one endpoint makes each in turn. */
describe('DeliveryQueueWorker (real Redis)', () => {
  const made: AttemptDeliveryCommand[] = [];
  let failOn: string | undefined;
  // An attempt of a delivery named here waits until its promise settles (a receiver taking its time).
  const held = new Map<string, Promise<void>>();
  const started: string[] = [];
  const attempt = {
    async execute(command: AttemptDeliveryCommand): Promise<AttemptOutcome> {
      started.push(command.deliveryId);
      await held.get(command.deliveryId);
      if (command.deliveryId === failOn) {
        failOn = undefined;
        throw new Error('PostgreSQL went away');
      }
      made.push(command);
      return { kind: 'attempted', verdict: 'succeeded', result: { statusCode: 204, error: null, durationMs: 3, response: null, retryAfterMs: null, timedOut: false }, disabled: null };
    },
  } as unknown as AttemptDeliveryUseCase;
  const worker = new DeliveryQueueWorker(attempt, { redisUrl: testRedisUrl(), prefix, concurrency: 4, perEndpoint: 1, slotLeaseMs: 60_000 }, createLogger('dlv-queue-worker-spec', 'silent'), new WebhookAttemptMetrics(createMetricsRegistry()));
  const connection = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  const queue = new Queue(WEBHOOK_DELIVERY_QUEUE, { connection, prefix });

  beforeAll(() => worker.start());

  afterAll(async () => {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
  });

  it('makes the job’s own attempt and then each one it carries, once, in order, for the job’s endpoint', async () => {
    const dueAt = Date.now();
    await queue.add('deliveries.attempt', { deliveryId: 'dlv_w_1', endpointId: 'ep_w', attemptsMade: 0, dueAt, also: [{ deliveryId: 'dlv_w_2', attemptsMade: 0, dueAt }, { deliveryId: 'dlv_w_3', attemptsMade: 0, dueAt }] }, { jobId: 'w1', attempts: 3, backoff: { type: 'fixed', delay: 50 } });
    await eventually(async () => (made.length >= 3 ? true : undefined));
    // Each under the job's id: the lease of a job's attempt is the job's.
    expect(made).toEqual(['dlv_w_1', 'dlv_w_2', 'dlv_w_3'].map((deliveryId) => ({ deliveryId, endpointId: 'ep_w', attemptsMade: 0, dueAt, jobId: 'w1' })));
  });

  it('an attempt that throws fails the job, and BullMQ’s retry carries on from the start (the attempts made are the use case’s to skip)', async () => {
    made.length = 0;
    failOn = 'dlv_x_2';
    const dueAt = Date.now();
    await queue.add('deliveries.attempt', { deliveryId: 'dlv_x_1', endpointId: 'ep_x', attemptsMade: 0, dueAt, also: [{ deliveryId: 'dlv_x_2', attemptsMade: 0, dueAt }, { deliveryId: 'dlv_x_3', attemptsMade: 0, dueAt }] }, { jobId: 'x1', attempts: 3, backoff: { type: 'fixed', delay: 50 } });
    await eventually(async () => (made.some((command) => command.deliveryId === 'dlv_x_3') ? true : undefined));
    // dlv_x_3 only after dlv_x_2 went through on the retry: never skipped past a failure.
    expect(made.map((command) => command.deliveryId)).toEqual(['dlv_x_1', 'dlv_x_1', 'dlv_x_2', 'dlv_x_3']);
  });

  describe('first attempts made in process (attemptHere)', () => {
    const job = (id: string, endpointId: string, ...deliveryIds: string[]) => {
      const dueAt = Date.now();
      const [first, ...rest] = deliveryIds.map((deliveryId) => ({ deliveryId, attemptsMade: 0, dueAt }));
      return { id, data: { ...first!, endpointId, ...(rest.length ? { also: rest } : {}) } };
    };
    const release = () => {
      let open!: () => void;
      return { gate: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
    };

    it('makes the attempts without a job, in order, each under the job’s id, and queues nothing', async () => {
      made.length = 0;
      const queued = jest.fn(async () => undefined);
      expect(worker.attemptHere(job('h1', 'ep_h', 'dlv_h_1', 'dlv_h_2'), queued)).toBe(true);
      await eventually(async () => (made.length >= 2 ? true : undefined));
      expect(made.map(({ deliveryId, jobId }) => ({ deliveryId, jobId }))).toEqual([
        { deliveryId: 'dlv_h_1', jobId: 'h1' },
        { deliveryId: 'dlv_h_2', jobId: 'h1' },
      ]);
      expect(queued).not.toHaveBeenCalled();
      expect(await queue.getJob('h1')).toBeUndefined();
    });

    it('an attempt that throws hands the whole job to the queue, for BullMQ’s retries', async () => {
      made.length = 0;
      failOn = 'dlv_t_2';
      const queued = jest.fn(async () => undefined);
      expect(worker.attemptHere(job('t1', 'ep_t', 'dlv_t_1', 'dlv_t_2', 'dlv_t_3'), queued)).toBe(true);
      await eventually(async () => (queued.mock.calls.length ? true : undefined));
      // Never past a failure: dlv_t_3 is left to the job, which skips dlv_t_1 by its lease.
      expect(made.map((command) => command.deliveryId)).toEqual(['dlv_t_1']);
      expect(queued).toHaveBeenCalledTimes(1);
    });

    it('with no slot of the endpoint free in time, queues the job untouched, to wait for one like any other', async () => {
      made.length = 0;
      const busy = release();
      held.set('dlv_s_1', busy.gate);
      const first = jest.fn(async () => undefined);
      const second = jest.fn(async () => undefined);
      // perEndpoint is 1: the first job holds the endpoint's only slot while its receiver takes its time.
      expect(worker.attemptHere(job('s1', 'ep_s', 'dlv_s_1'), first)).toBe(true);
      expect(worker.attemptHere(job('s2', 'ep_s', 'dlv_s_2'), second)).toBe(true);
      await eventually(async () => (second.mock.calls.length ? true : undefined), 5_000);
      expect(made.map((command) => command.deliveryId)).toEqual([]);
      busy.open();
      await eventually(async () => (made.length ? true : undefined));
      expect(made.map((command) => command.deliveryId)).toEqual(['dlv_s_1']);
      expect(first).not.toHaveBeenCalled();
      held.delete('dlv_s_1');
    });

    it('takes a job already in flight here without running it twice: both runs would hold its one lease', async () => {
      made.length = 0;
      const slow = release();
      held.set('dlv_d_1', slow.gate);
      const queued = jest.fn(async () => undefined);
      expect(worker.attemptHere(job('d1', 'ep_d', 'dlv_d_1'), queued)).toBe(true);
      await eventually(async () => (started.includes('dlv_d_1') ? true : undefined));
      expect(worker.attemptHere(job('d1', 'ep_d', 'dlv_d_1'), queued)).toBe(true);
      slow.open();
      await eventually(async () => (made.length ? true : undefined));
      // Once it has ended, the same id is a new run (a later sweep of a step still due): offered until one is made.
      await eventually(async () => (made.length >= 2 || !worker.attemptHere(job('d1', 'ep_d', 'dlv_d_1'), queued) ? true : undefined));
      expect(made.map((command) => command.deliveryId)).toEqual(['dlv_d_1', 'dlv_d_1']);
      expect(started.filter((id) => id === 'dlv_d_1')).toHaveLength(2);
      expect(queued).not.toHaveBeenCalled();
      held.delete('dlv_d_1');
    });

    it('refuses past `concurrency` in flight, and close lets those in flight finish and refuses the rest', async () => {
      made.length = 0;
      const slow = release();
      const ids = ['dlv_c_1', 'dlv_c_2', 'dlv_c_3', 'dlv_c_4'];
      for (const id of ids) held.set(id, slow.gate);
      const queued = jest.fn(async () => undefined);
      // concurrency is 4, one endpoint each (perEndpoint 1).
      for (const [index, id] of ids.entries()) expect(worker.attemptHere(job(`c${index}`, `ep_c_${index}`, id), queued)).toBe(true);
      expect(worker.attemptHere(job('c5', 'ep_c_5', 'dlv_c_5'), queued)).toBe(false);
      await eventually(async () => (ids.every((id) => started.includes(id)) ? true : undefined));

      const closed = worker.close();
      expect(worker.attemptHere(job('c6', 'ep_c_6', 'dlv_c_6'), queued)).toBe(false);
      slow.open();
      await closed;
      expect(made.map((command) => command.deliveryId).sort()).toEqual(ids);
      expect(queued).not.toHaveBeenCalled();
      for (const id of ids) held.delete(id);
    });
  });
});
