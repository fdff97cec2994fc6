import { answered } from '../../../../test/support/in-memory/scripted-webhook.sender';
import { attemptJob, testSecret, webhookDeliveryWorkerInMemory } from '../../../../test/support/in-memory/webhook-delivery-worker-in-memory.kit';

const to = (endpointId: string, dropped = false) => ({ endpointId, organizationId: 'org_1', dropped });

describe('SweepDeliveriesUseCase (in memory)', () => {
  it('queues again only the PENDING deliveries that are due and not held by a live attempt, oldest first', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    for (const endpointId of ['ep_ok', 'ep_failing']) hooks.endpoints.add({ endpointId, organizationId: 'org_1', url: 'https://hooks.example.com/a', secrets: [testSecret(endpointId)] });

    await hooks.recordMessage.execute(hooks.message([to('ep_ok'), to('ep_failing'), to('ep_off', true)])); // t0
    hooks.clock.advance(1000);
    await hooks.recordMessage.execute(hooks.message([to('ep_leased')])); // t0 + 1 s
    hooks.clock.advance(1000);
    await hooks.recordMessage.execute(hooks.message([to('ep_due')])); // t0 + 2 s
    const [ok, failing, leased, due] = hooks.queue.take();

    hooks.sender.willAnswer(answered(200), answered(500));
    await hooks.attemptDelivery.execute(attemptJob(ok)); // SUCCEEDED
    await hooks.attemptDelivery.execute(attemptJob(failing)); // PENDING, due in ~5 s
    const [retry] = hooks.queue.take();
    // Another worker is attempting this one right now.
    hooks.deliveries.patch(leased.deliveryId, { leasedBy: 'worker-b', leasedUntil: new Date(hooks.clock.now().getTime() + 30_000) });
    // Recorded a moment from now: not due yet.
    hooks.clock.advance(1);
    const future = new Date(hooks.clock.now().getTime() + 60_000);
    await hooks.recordMessage.execute(hooks.message([to('ep_future')], { createdAt: future.toISOString() }));
    hooks.queue.take();

    expect(await hooks.sweepDeliveries.execute()).toBe(1);
    expect(hooks.queue.take()).toEqual([due]);

    hooks.clock.set(retry.dueAt);
    expect(await hooks.sweepDeliveries.execute()).toBe(2);
    expect(hooks.queue.take()).toEqual([due, retry]);

    // The lease has ended (its holder died) and the last one is due: all four, oldest first.
    hooks.clock.set(future);
    expect(await hooks.sweepDeliveries.execute()).toBe(4);
    const queued = hooks.queue.take();
    expect(queued.map((job) => job.endpointId)).toEqual(['ep_leased', 'ep_due', 'ep_failing', 'ep_future']);
    // The dead worker's job may still be in Redis: the one for the abandoned attempt is told apart by the lease's end.
    expect(queued[0]).toEqual({ ...leased, abandonedLeaseUntil: hooks.deliveries.row(leased.deliveryId).leasedUntil });
    expect(queued.slice(1).every((job) => job.abandonedLeaseUntil === undefined)).toBe(true);
  });

  it('queues every due delivery once, past the batch size', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    const endpoints = Array.from({ length: 1203 }, (_, index) => to(`ep_${index}`));
    await hooks.recordMessage.execute(hooks.message(endpoints));
    hooks.queue.take();

    expect(await hooks.sweepDeliveries.execute()).toBe(1203);
    const queued = hooks.queue.take();
    expect(new Set(queued.map((job) => job.deliveryId)).size).toBe(1203);
    expect(await hooks.sweepDeliveries.execute()).toBe(1203);
  });

  it('leaves a delivery due for less than the grace to the job that still carries it', async () => {
    const hooks = webhookDeliveryWorkerInMemory({ sweepGraceMs: 10_000 });
    await hooks.recordMessage.execute(hooks.message([to('ep_fresh')]));
    const [job] = hooks.queue.take();
    hooks.clock.advance(9_999);
    expect(await hooks.sweepDeliveries.execute()).toBe(0);
    hooks.clock.advance(1);
    expect(await hooks.sweepDeliveries.execute()).toBe(1);
    expect(hooks.queue.take()).toEqual([job]);
  });

  it('finds nothing when nothing is due', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    expect(await hooks.sweepDeliveries.execute()).toBe(0);
    expect(hooks.queue.jobs).toEqual([]);
  });
});
