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
  const attempt = {
    async execute(command: AttemptDeliveryCommand): Promise<AttemptOutcome> {
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
});
