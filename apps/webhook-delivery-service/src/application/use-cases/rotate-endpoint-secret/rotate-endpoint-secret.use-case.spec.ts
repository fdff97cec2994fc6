import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('RotateEndpointSecretUseCase (in memory)', () => {
  it('issues a new secret; the old one signs no more at once, or until the grace period ends', async () => {
    const hooks = webhookDeliveryInMemory();
    const created = await hooks.createEndpoint.execute({ organizationId: 'org_1', url: 'https://hooks.example.com/a', eventTypes: [], description: null });
    const original = (await hooks.getEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id })).key;
    const immediate = await hooks.rotateEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id, gracePeriodSeconds: 0 });
    expect(immediate.key).not.toBe(original);
    expect(hooks.endpoints.endpoints.get(created.id)!.signingSecrets(hooks.clock.now())).toEqual([immediate.key]);

    const graceful = await hooks.rotateEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id, gracePeriodSeconds: 60 });
    expect(await hooks.getEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id })).toEqual(graceful);
    expect(hooks.endpoints.endpoints.get(created.id)!.signingSecrets(hooks.clock.now())).toEqual([graceful.key, immediate.key]);
    hooks.clock.advance(60_000);
    expect(hooks.endpoints.endpoints.get(created.id)!.signingSecrets(hooks.clock.now())).toEqual([graceful.key]);
    await expect(hooks.rotateEndpointSecret.execute({ organizationId: 'org_2', endpointId: created.id, gracePeriodSeconds: 0 })).rejects.toMatchObject({ code: 'not_found' });
  });
});
