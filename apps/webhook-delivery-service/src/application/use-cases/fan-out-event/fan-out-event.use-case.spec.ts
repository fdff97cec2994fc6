import type { EventEnvelope } from '@pfs/contracts';
import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

const transaction = (organizationId: string, parentOrganizationId: string | null, parentHoldsActiveLoa: boolean, id = 'evt_1'): EventEnvelope<'transaction.status.updated'> => ({
  id,
  type: 'transaction.status.updated',
  source: 'ledger',
  occurredAt: '2026-11-23T10:00:00.000Z',
  requestId: 'req_1',
  aggregateId: 'txn_1',
  sequence: 1,
  data: {
    object: 'transaction',
    transaction_id: 'txn_1',
    transaction_type: 'CRYPTO_PAYIN',
    status: 'COMPLETED',
    previous_status: 'EXPECTED',
    account_id: 'acct_1',
    organization_id: organizationId,
    role: 'RECEIVER',
    occurred_at: '2026-11-23T10:00:00.000Z',
  },
  audience: { organizationId, parentOrganizationId, parentHoldsActiveLoa },
});

describe('FanOutEventUseCase (in memory)', () => {
  it('writes one message with the exact body and hands every due endpoint to the worker in one event; a disabled one is dropped, a deleted one left out', async () => {
    const hooks = webhookDeliveryInMemory();
    const register = (organizationId: string, eventTypes: string[] = []) =>
      hooks.createEndpoint.execute({ organizationId, url: 'https://hooks.example.com/a', eventTypes, description: null });
    const client = await register('org_client');
    const kycOnly = await register('org_client', ['organization.verification.updated']);
    const paused = await register('org_client');
    await hooks.updateEndpoint.execute({ organizationId: 'org_client', endpointId: paused.id, disabled: true });
    const removed = await register('org_client');
    await hooks.deleteEndpoint.execute({ organizationId: 'org_client', endpointId: removed.id });
    const broker = await register('org_broker');
    await register('org_stranger');

    const message = await hooks.fanOutEvent.execute(transaction('org_client', 'org_broker', true));
    expect(message.id).toMatch(/^msg_/);
    expect(JSON.parse(message.payload)).toEqual({ type: 'transaction.status.updated', timestamp: '2026-11-23T10:00:00.000Z', data: transaction('org_client', null, false).data });
    expect(hooks.outbox.events).toHaveLength(1);
    expect(hooks.outbox.events[0]).toMatchObject({
      type: 'webhook-message.created',
      data: {
        messageId: message.id,
        eventType: 'transaction.status.updated',
        payload: message.payload,
        deliveries: [
          { endpointId: client.id, organizationId: 'org_client', dropped: false },
          { endpointId: paused.id, organizationId: 'org_client', dropped: true },
          { endpointId: broker.id, organizationId: 'org_broker', dropped: false },
        ],
      },
    });
    expect(kycOnly.id).not.toBe(client.id);

    // The same event again writes nothing (its message exists).
    await hooks.fanOutEvent.execute(transaction('org_client', 'org_broker', true));
    expect(hooks.messages.messages.size).toBe(1);
    expect(hooks.outbox.events).toHaveLength(1);
  });

  it('without an LOA the creator gets no transaction; with no endpoint at all nothing is written or handed on, and a plan has nothing to write', async () => {
    const hooks = webhookDeliveryInMemory();
    await hooks.createEndpoint.execute({ organizationId: 'org_broker', url: 'https://hooks.example.com/b', eventTypes: [], description: null });
    const message = await hooks.fanOutEvent.execute(transaction('org_client', 'org_broker', false, 'evt_2'));
    expect(message.deliveries).toEqual([]);
    expect(hooks.messages.messages.size).toBe(0);
    expect(hooks.outbox.events).toEqual([]);
    expect(await hooks.fanOutEvent.plan(transaction('org_client', 'org_broker', false, 'evt_2'))).toBeNull();
  });

  it('plans a batch’s fan-out: endpoints read when planned, the message and its hand-off written only when the plan’s writes run, and refused for an event fanned out already', async () => {
    const hooks = webhookDeliveryInMemory();
    const endpoint = await hooks.createEndpoint.execute({ organizationId: 'org_client', url: 'https://hooks.example.com/a', eventTypes: [], description: null });
    const write = await hooks.fanOutEvent.plan(transaction('org_client', null, false, 'evt_planned'));
    // Registered after the reads: not among this event's deliveries.
    await hooks.createEndpoint.execute({ organizationId: 'org_client', url: 'https://hooks.example.com/b', eventTypes: [], description: null });
    expect(hooks.messages.messages.size).toBe(0);
    expect(hooks.outbox.events).toHaveLength(0);

    await write?.();
    expect(hooks.messages.messages.get('evt_planned')?.deliveries).toEqual([{ endpointId: endpoint.id, organizationId: 'org_client', dropped: false }]);
    expect(hooks.outbox.events).toMatchObject([{ type: 'webhook-message.created', data: { deliveries: [{ endpointId: endpoint.id }] } }]);

    const again = await hooks.fanOutEvent.plan(transaction('org_client', null, false, 'evt_planned'));
    await expect(again?.()).rejects.toThrow('has a message already');
    expect(hooks.outbox.events).toHaveLength(1);
  });
});
