import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('EnableAssetUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let organizationId: string;

  beforeEach(async () => {
    org = organizationInMemory();
    organizationId = (await org.root()).organizationId;
  });

  it('answers the asset ENABLED and stores the grant for that organization only', async () => {
    const neighbour = (await org.root('Neighbour')).organizationId;
    expect(await org.enableAsset.execute({ organizationId, asset: 'USDT' })).toEqual({ object: 'asset', code: 'USDT', name: 'Tether USD', type: 'CRYPTO', scale: 6, status: 'ENABLED' });
    expect([...org.assets.grants]).toEqual([[`${organizationId}/USDT`, org.clock.now()]]);
    expect((await org.listAssets.execute({ organizationId: neighbour })).every((asset) => asset.status === 'AVAILABLE')).toBe(true);
  });

  it('keeps the first grant time when enabled again', async () => {
    await org.enableAsset.execute({ organizationId, asset: 'USDT' });
    const first = org.clock.now();
    org.clock.advance(60_000);
    await org.enableAsset.execute({ organizationId, asset: 'USDT' });
    expect([...org.assets.grants.values()]).toEqual([first]);
  });

  it('answers not_found for an asset outside the catalog and organization_not_found for an unknown organization, recording nothing', async () => {
    await expect(org.enableAsset.execute({ organizationId, asset: 'DOGE' })).rejects.toMatchObject({ code: 'not_found', message: 'No asset DOGE was found.' });
    await expect(org.enableAsset.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff', asset: 'USD' })).rejects.toMatchObject({ code: 'organization_not_found' });
    expect(org.assets.grants.size).toBe(0);
  });
});
