import { webhookDeliveryWorkerInMemory } from '../../../../test/support/in-memory/webhook-delivery-worker-in-memory.kit';

describe('RecordMessageUseCase (in memory)', () => {
  it('records the message and one delivery per endpoint, due at its creation; only the PENDING ones are queued', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    const message = hooks.message([
      { endpointId: 'ep_1', organizationId: 'org_1', dropped: false },
      { endpointId: 'ep_2', organizationId: 'org_parent', dropped: false },
      { endpointId: 'ep_3', organizationId: 'org_1', dropped: true },
    ]);

    expect(await hooks.recordMessage.execute(message)).toBe(2);

    const createdAt = new Date(message.createdAt);
    expect(hooks.deliveries.messages.get(message.messageId)).toEqual({ id: message.messageId, eventType: message.eventType, payload: message.payload, createdAt });
    const rows = [...hooks.deliveries.deliveries.values()];
    expect(rows.map((row) => [row.endpointId, row.organizationId, row.status, row.attemptsMade, row.nextAttemptAt])).toEqual([
      ['ep_1', 'org_1', 'PENDING', 0, createdAt],
      ['ep_2', 'org_parent', 'PENDING', 0, createdAt],
      ['ep_3', 'org_1', 'DROPPED', 0, null],
    ]);
    expect(rows.every((row) => row.id.startsWith('dlv_'))).toBe(true);
    // The dropped delivery (its endpoint disabled at the fan-out) is never attempted.
    expect(hooks.queue.jobs).toEqual([
      { deliveryId: rows[0].id, endpointId: 'ep_1', attemptsMade: 0, dueAt: createdAt },
      { deliveryId: rows[1].id, endpointId: 'ep_2', attemptsMade: 0, dueAt: createdAt },
    ]);
    expect(await hooks.sweepDeliveries.execute()).toBe(2);
  });

  it('a repeat of the event records nothing more and queues nothing', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    const message = hooks.message([{ endpointId: 'ep_1', organizationId: 'org_1', dropped: false }]);
    await hooks.recordMessage.execute(message);
    hooks.queue.take();

    expect(await hooks.recordMessage.execute(message)).toBe(0);
    expect(await hooks.recordMessage.execute({ ...message, deliveries: [...message.deliveries, { endpointId: 'ep_2', organizationId: 'org_1', dropped: false }] })).toBe(0);
    expect(hooks.deliveries.deliveries.size).toBe(1);
    expect(hooks.deliveries.messages.size).toBe(1);
    expect(hooks.queue.jobs).toEqual([]);
  });

  it('a message whose every endpoint is disabled queues nothing', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    expect(await hooks.recordMessage.execute(hooks.message([{ endpointId: 'ep_1', organizationId: 'org_1', dropped: true }]))).toBe(0);
    expect(hooks.queue.jobs).toEqual([]);
    expect([...hooks.deliveries.deliveries.values()].map((row) => row.status)).toEqual(['DROPPED']);
  });

  it('planned for a batch: the same rows and jobs once its writes run, and refused for a message recorded already', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    const message = hooks.message([
      { endpointId: 'ep_1', organizationId: 'org_1', dropped: false },
      { endpointId: 'ep_2', organizationId: 'org_1', dropped: true },
    ]);
    const write = await hooks.recordMessage.plan(message);
    expect(hooks.deliveries.messages.size).toBe(0);
    await write();
    const rows = [...hooks.deliveries.deliveries.values()];
    expect(rows.map((row) => [row.endpointId, row.status])).toEqual([
      ['ep_1', 'PENDING'],
      ['ep_2', 'DROPPED'],
    ]);
    expect(hooks.queue.take()).toEqual([{ deliveryId: rows[0].id, endpointId: 'ep_1', attemptsMade: 0, dueAt: new Date(message.createdAt) }]);

    const again = await hooks.recordMessage.plan(message);
    await expect(again()).rejects.toThrow('recorded already');
    expect(hooks.deliveries.deliveries.size).toBe(2);
    expect(hooks.queue.jobs).toEqual([]);
  });
});
