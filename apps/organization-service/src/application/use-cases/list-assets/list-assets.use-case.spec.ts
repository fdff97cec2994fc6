import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('ListAssetsUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let organizationId: string;

  beforeEach(async () => {
    org = organizationInMemory();
    organizationId = (await org.root()).organizationId;
  });

  it('lists the whole catalog, in catalog order, AVAILABLE for a new organization', async () => {
    expect(await org.listAssets.execute({ organizationId })).toEqual([
      { object: 'asset', code: 'USD', name: 'US Dollar', type: 'FIAT', scale: 2, status: 'AVAILABLE' },
      { object: 'asset', code: 'EUR', name: 'Euro', type: 'FIAT', scale: 2, status: 'AVAILABLE' },
      { object: 'asset', code: 'USDC', name: 'USD Coin', type: 'CRYPTO', scale: 6, status: 'AVAILABLE' },
      { object: 'asset', code: 'USDT', name: 'Tether USD', type: 'CRYPTO', scale: 6, status: 'AVAILABLE' },
      { object: 'asset', code: 'BTC', name: 'Bitcoin', type: 'CRYPTO', scale: 8, status: 'AVAILABLE' },
      { object: 'asset', code: 'ETH', name: 'Ether', type: 'CRYPTO', scale: 18, status: 'AVAILABLE' },
    ]);
  });

  it('shows the assets granted to the organization as ENABLED', async () => {
    await org.assets.enable(organizationId, 'BTC', org.clock.now());
    const statuses = Object.fromEntries((await org.listAssets.execute({ organizationId })).map((asset) => [asset.code, asset.status]));
    expect(statuses).toEqual({ USD: 'AVAILABLE', EUR: 'AVAILABLE', USDC: 'AVAILABLE', USDT: 'AVAILABLE', BTC: 'ENABLED', ETH: 'AVAILABLE' });
  });

  it('answers organization_not_found for an unknown organization', async () => {
    await expect(org.listAssets.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
  });
});
