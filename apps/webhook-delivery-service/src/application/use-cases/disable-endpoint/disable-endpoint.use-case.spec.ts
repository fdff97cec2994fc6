import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('DisableEndpointUseCase (in memory)', () => {
  it('disables an enabled endpoint once; a disabled, deleted or unknown one is left as it is', async () => {
    const hooks = webhookDeliveryInMemory();
    const created = await hooks.createEndpoint.execute({ organizationId: 'org_1', url: 'https://hooks.example.com/a', eventTypes: [], description: null });
    hooks.clock.advance(1000);
    expect(await hooks.disableEndpoint.execute({ endpointId: created.id, reason: 'gone' })).toEqual({ endpointId: created.id, disabled: true });
    expect(await hooks.getEndpoint.execute({ organizationId: 'org_1', endpointId: created.id })).toMatchObject({ disabled: true, updatedAt: hooks.clock.now().toISOString() });
    expect(await hooks.disableEndpoint.execute({ endpointId: created.id, reason: 'failing' })).toEqual({ endpointId: created.id, disabled: false });

    // The partner turns it back on with PATCH; deleting it leaves nothing to disable.
    await hooks.updateEndpoint.execute({ organizationId: 'org_1', endpointId: created.id, disabled: false });
    await hooks.deleteEndpoint.execute({ organizationId: 'org_1', endpointId: created.id });
    expect(await hooks.disableEndpoint.execute({ endpointId: created.id, reason: 'failing' })).toEqual({ endpointId: created.id, disabled: false });
    expect(await hooks.disableEndpoint.execute({ endpointId: 'ep_unknown', reason: 'gone' })).toEqual({ endpointId: 'ep_unknown', disabled: false });
  });
});
