import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('CreateEndpointUseCase (in memory)', () => {
  it('registers an enabled endpoint with its event types in catalog order and a whsec_ secret of 32 random bytes', async () => {
    const hooks = webhookDeliveryInMemory();
    const endpoint = await hooks.createEndpoint.execute({
      organizationId: 'org_1',
      url: 'https://hooks.example.com/pfs',
      eventTypes: ['transaction.status.updated', 'organization.verification.updated', 'transaction.status.updated'],
      description: 'Ops',
    });
    expect(endpoint).toMatchObject({
      object: 'webhook_endpoint',
      url: 'https://hooks.example.com/pfs',
      description: 'Ops',
      disabled: false,
      eventTypes: ['organization.verification.updated', 'transaction.status.updated'],
    });
    const { key } = await hooks.getEndpointSecret.execute({ organizationId: 'org_1', endpointId: endpoint.id });
    expect(key).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(key.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('refuses an unknown event type and a URL that points, or resolves, inside the network, registering nothing', async () => {
    const hooks = webhookDeliveryInMemory();
    hooks.destinations.dns.set('internal.example.com', ['93.184.216.34', '10.0.0.7']);
    const create = (url: string, eventTypes: string[] = []) => hooks.createEndpoint.execute({ organizationId: 'org_1', url, eventTypes, description: null });
    await expect(create('https://hooks.example.com/pfs', ['payment.created'])).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('payment.created') });
    await expect(create('http://hooks.example.com/pfs')).rejects.toMatchObject({ code: 'invalid_request', message: 'url: must be an https:// URL' });
    await expect(create('https://169.254.169.254/latest')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(create('https://internal.example.com/hook')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('private') });
    expect(hooks.endpoints.endpoints.size).toBe(0);
  });
});
