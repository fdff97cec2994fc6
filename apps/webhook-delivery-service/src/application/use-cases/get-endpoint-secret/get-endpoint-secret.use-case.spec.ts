import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('GetEndpointSecretUseCase (in memory)', () => {
  it('returns the same secret at any time, to the endpoint’s organization only', async () => {
    const hooks = webhookDeliveryInMemory();
    const created = await hooks.createEndpoint.execute({ organizationId: 'org_1', url: 'https://hooks.example.com/a', eventTypes: [], description: null });
    const first = await hooks.getEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id });
    expect(await hooks.getEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id })).toEqual(first);
    await expect(hooks.getEndpointSecret.execute({ organizationId: 'org_2', endpointId: created.id })).rejects.toMatchObject({ code: 'not_found' });
  });
});
