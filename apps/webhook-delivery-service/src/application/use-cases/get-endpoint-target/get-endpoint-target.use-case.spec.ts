import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('GetEndpointTargetUseCase (in memory)', () => {
  it('answers the URL, the state and the secrets to sign with now, sealed; inactive once disabled or deleted; null for an unknown id', async () => {
    const hooks = webhookDeliveryInMemory();
    const created = await hooks.createEndpoint.execute({ organizationId: 'org_1', url: 'https://hooks.example.com/a', eventTypes: [], description: null });
    const first = (await hooks.getEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id })).key;
    expect(await hooks.getEndpointTarget.execute({ endpointId: created.id })).toEqual({
      endpointId: created.id,
      organizationId: 'org_1',
      url: 'https://hooks.example.com/a',
      active: true,
      sealedSecrets: [`sealed(${first})`],
    });

    const second = await hooks.rotateEndpointSecret.execute({ organizationId: 'org_1', endpointId: created.id, gracePeriodSeconds: 60 });
    expect((await hooks.getEndpointTarget.execute({ endpointId: created.id }))?.sealedSecrets).toEqual([`sealed(${second.key})`, `sealed(${first})`]);
    hooks.clock.advance(60_000);
    expect((await hooks.getEndpointTarget.execute({ endpointId: created.id }))?.sealedSecrets).toEqual([`sealed(${second.key})`]);

    await hooks.updateEndpoint.execute({ organizationId: 'org_1', endpointId: created.id, disabled: true });
    expect(await hooks.getEndpointTarget.execute({ endpointId: created.id })).toMatchObject({ active: false, sealedSecrets: [] });
    await hooks.updateEndpoint.execute({ organizationId: 'org_1', endpointId: created.id, disabled: false });
    await hooks.deleteEndpoint.execute({ organizationId: 'org_1', endpointId: created.id });
    expect(await hooks.getEndpointTarget.execute({ endpointId: created.id })).toMatchObject({ active: false, sealedSecrets: [] });
    expect(await hooks.getEndpointTarget.execute({ endpointId: 'ep_unknown' })).toBeNull();
  });
});
