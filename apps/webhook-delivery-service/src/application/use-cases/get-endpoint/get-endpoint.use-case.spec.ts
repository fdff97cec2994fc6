import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('GetEndpointUseCase (in memory)', () => {
  it('shows an endpoint to its organization only; another organization’s or a deleted one is not_found', async () => {
    const hooks = webhookDeliveryInMemory();
    const created = await hooks.createEndpoint.execute({ organizationId: 'org_1', url: 'https://hooks.example.com/a', eventTypes: [], description: null });
    expect(await hooks.getEndpoint.execute({ organizationId: 'org_1', endpointId: created.id })).toEqual(created);
    await expect(hooks.getEndpoint.execute({ organizationId: 'org_2', endpointId: created.id })).rejects.toMatchObject({ code: 'not_found' });
    await hooks.deleteEndpoint.execute({ organizationId: 'org_1', endpointId: created.id });
    await expect(hooks.getEndpoint.execute({ organizationId: 'org_1', endpointId: created.id })).rejects.toMatchObject({ code: 'not_found' });
  });
});
