import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('UpdateEndpointUseCase (in memory)', () => {
  it('changes only the fields given; disabled moves both ways; a new URL passes the SSRF rules', async () => {
    const hooks = webhookDeliveryInMemory();
    const created = await hooks.createEndpoint.execute({ organizationId: 'org_1', url: 'https://hooks.example.com/a', eventTypes: ['transaction.status.updated'], description: 'Ops' });
    hooks.clock.advance(5000);
    const disabled = await hooks.updateEndpoint.execute({ organizationId: 'org_1', endpointId: created.id, disabled: true });
    expect(disabled).toMatchObject({ disabled: true, url: created.url, description: 'Ops', eventTypes: ['transaction.status.updated'], updatedAt: hooks.clock.now().toISOString() });
    expect(await hooks.updateEndpoint.execute({ organizationId: 'org_1', endpointId: created.id, disabled: false, eventTypes: [], description: null })).toMatchObject({
      disabled: false,
      eventTypes: [],
      description: null,
    });
    await expect(hooks.updateEndpoint.execute({ organizationId: 'org_1', endpointId: created.id, url: 'https://[::ffff:127.0.0.1]/x' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(hooks.updateEndpoint.execute({ organizationId: 'org_2', endpointId: created.id, disabled: true })).rejects.toMatchObject({ code: 'not_found' });
    expect((await hooks.getEndpoint.execute({ organizationId: 'org_1', endpointId: created.id })).url).toBe('https://hooks.example.com/a');
  });
});
