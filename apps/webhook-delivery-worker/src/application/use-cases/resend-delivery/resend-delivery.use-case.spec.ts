import { answered } from '../../../../test/support/in-memory/scripted-webhook.sender';
import { attemptJob, testSecret, webhookDeliveryWorkerInMemory, type WorkerKitOptions } from '../../../../test/support/in-memory/webhook-delivery-worker-in-memory.kit';

async function oneMessage(options: WorkerKitOptions = {}) {
  const hooks = webhookDeliveryWorkerInMemory(options);
  hooks.endpoints.add({ endpointId: 'ep_1', organizationId: 'org_1', url: 'https://hooks.example.com/a', secrets: [testSecret('a')] });
  const message = hooks.message([{ endpointId: 'ep_1', organizationId: 'org_1', dropped: false }]);
  await hooks.recordMessage.execute(message);
  const [job] = hooks.queue.take();
  return { hooks, message, job, deliveryId: job.deliveryId };
}

describe('ResendDeliveryUseCase (in memory)', () => {
  it('a delivered message is due again now, and sent again with the same hook-id', async () => {
    const { hooks, message, job, deliveryId } = await oneMessage();
    hooks.sender.willAnswer(answered(200));
    await hooks.attemptDelivery.execute(attemptJob(job));
    hooks.clock.advance(3_600_000);

    const view = await hooks.resendDelivery.execute({ organizationId: 'org_1', endpointId: 'ep_1', messageId: message.messageId });

    expect(view).toEqual({ object: 'webhook_delivery', messageId: message.messageId, endpointId: 'ep_1', status: 'PENDING', nextAttemptAt: hooks.clock.now().toISOString() });
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'PENDING', attemptsMade: 1, retryIndex: 0, nextAttemptAt: hooks.clock.now() });
    const [again] = hooks.queue.take();
    expect(again).toEqual({ deliveryId, endpointId: 'ep_1', attemptsMade: 1, dueAt: hooks.clock.now() });

    hooks.sender.willAnswer(answered(200));
    expect(await hooks.attemptDelivery.execute(attemptJob(again))).toMatchObject({ kind: 'attempted', verdict: 'succeeded' });
    expect(hooks.sender.requests.map((request) => request.headers['hook-id'])).toEqual([message.messageId, message.messageId]);
    expect(hooks.deliveries.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
  });

  it('a message that failed for good gets the whole retry schedule again', async () => {
    const { hooks, message, job, deliveryId } = await oneMessage({ retrySchedule: [] });
    hooks.sender.willAnswer(answered(500));
    await hooks.attemptDelivery.execute(attemptJob(job));
    expect(hooks.deliveries.row(deliveryId).status).toBe('FAILED');

    await hooks.resendDelivery.execute({ organizationId: 'org_1', endpointId: 'ep_1', messageId: message.messageId });
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'PENDING', attemptsMade: 1, retryIndex: 0 });
  });

  it('a message still retrying is due now; the retry queued before it is then stale', async () => {
    const { hooks, message, job, deliveryId } = await oneMessage();
    hooks.sender.willAnswer(answered(503));
    await hooks.attemptDelivery.execute(attemptJob(job));
    const [scheduled] = hooks.queue.take();
    expect(hooks.deliveries.row(deliveryId).retryIndex).toBe(1);

    await hooks.resendDelivery.execute({ organizationId: 'org_1', endpointId: 'ep_1', messageId: message.messageId });
    const [now] = hooks.queue.take();
    expect(now.dueAt).toEqual(hooks.clock.now());
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'PENDING', retryIndex: 0, nextAttemptAt: hooks.clock.now() });

    hooks.sender.willAnswer(answered(200));
    await hooks.attemptDelivery.execute(attemptJob(now));
    hooks.clock.set(scheduled.dueAt);
    expect(await hooks.attemptDelivery.execute(attemptJob(scheduled))).toEqual({ kind: 'skipped' });
    expect(hooks.sender.requests).toHaveLength(2);
  });

  it('a dropped delivery is resent too', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    const message = hooks.message([{ endpointId: 'ep_1', organizationId: 'org_1', dropped: true }]);
    await hooks.recordMessage.execute(message);
    expect(await hooks.resendDelivery.execute({ organizationId: 'org_1', endpointId: 'ep_1', messageId: message.messageId })).toMatchObject({ status: 'PENDING' });
    expect(hooks.queue.jobs).toHaveLength(1);
  });

  it("not_found for a message never due to the endpoint, or another organization's", async () => {
    const { hooks, message, deliveryId } = await oneMessage();
    const before = hooks.deliveries.row(deliveryId);
    for (const command of [
      { organizationId: 'org_1', endpointId: 'ep_1', messageId: 'msg_unknown' },
      { organizationId: 'org_2', endpointId: 'ep_1', messageId: message.messageId },
      { organizationId: 'org_1', endpointId: 'ep_2', messageId: message.messageId },
    ]) {
      await expect(hooks.resendDelivery.execute(command)).rejects.toMatchObject({ code: 'not_found' });
    }
    expect(hooks.deliveries.row(deliveryId)).toEqual(before);
    expect(hooks.queue.jobs).toEqual([]);
  });
});
