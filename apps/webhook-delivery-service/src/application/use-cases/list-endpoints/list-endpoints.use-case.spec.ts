import { webhookDeliveryInMemory } from '../../../../test/support/in-memory/webhook-delivery-in-memory.kit';

describe('ListEndpointsUseCase (in memory)', () => {
  it('lists the organization’s endpoints newest first, without deleted ones, in pages', async () => {
    const hooks = webhookDeliveryInMemory();
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      hooks.clock.advance(1000);
      ids.push((await hooks.createEndpoint.execute({ organizationId: 'org_1', url: `https://hooks.example.com/${index}`, eventTypes: [], description: null })).id);
    }
    await hooks.createEndpoint.execute({ organizationId: 'org_2', url: 'https://hooks.example.com/other', eventTypes: [], description: null });
    await hooks.deleteEndpoint.execute({ organizationId: 'org_1', endpointId: ids[1]! });
    const first = await hooks.listEndpoints.execute({ organizationId: 'org_1', page: { limit: 1, cursor: null } });
    expect(first.data.map((endpoint) => endpoint.id)).toEqual([ids[2]]);
    const next = await hooks.listEndpoints.execute({ organizationId: 'org_1', page: { limit: 1, cursor: first.nextCursor } });
    expect(next.data.map((endpoint) => endpoint.id)).toEqual([ids[0]]);
    expect(next.hasMore).toBe(false);
  });
});
