import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('DeleteEndpointUseCase (in memory)', () => {
  it('answers the deletion result once, then not_found', async () => {
    const hooks = webhookDeliveryInMemory();
    const created = await hooks.createEndpoint.execute({ organizationId: 'org_1', url: 'https://hooks.example.com/a', eventTypes: [], description: null });
    await expect(hooks.deleteEndpoint.execute({ organizationId: 'org_2', endpointId: created.id })).rejects.toMatchObject({ code: 'not_found' });
    expect(await hooks.deleteEndpoint.execute({ organizationId: 'org_1', endpointId: created.id })).toEqual({ object: 'webhook_endpoint', id: created.id, deleted: true });
    await expect(hooks.deleteEndpoint.execute({ organizationId: 'org_1', endpointId: created.id })).rejects.toMatchObject({ code: 'not_found' });
    expect(hooks.endpoints.endpoints.get(created.id)?.props).toMatchObject({ disabled: true, deletedAt: hooks.clock.now() });
  });
});
