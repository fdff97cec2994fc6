import { createOrganizationTestKit, uniqueName, type OrganizationTestKit } from '../support/organization-test-kit';


describe('ListAssetsUseCase (real PostgreSQL)', () => {
  let kit: OrganizationTestKit;

  beforeAll(() => {
    kit = createOrganizationTestKit();
  });

  afterAll(async () => {
    await kit.close();
  });

  it('lists the whole catalog as AVAILABLE for a new organization', async () => {
    const { organizationId } = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    expect(await kit.listAssets.execute({ organizationId })).toEqual([
      { object: 'asset', code: 'USD', name: 'US Dollar', type: 'FIAT', scale: 2, status: 'AVAILABLE' },
      { object: 'asset', code: 'EUR', name: 'Euro', type: 'FIAT', scale: 2, status: 'AVAILABLE' },
      { object: 'asset', code: 'USDC', name: 'USD Coin', type: 'CRYPTO', scale: 6, status: 'AVAILABLE' },
      { object: 'asset', code: 'USDT', name: 'Tether USD', type: 'CRYPTO', scale: 6, status: 'AVAILABLE' },
      { object: 'asset', code: 'BTC', name: 'Bitcoin', type: 'CRYPTO', scale: 8, status: 'AVAILABLE' },
      { object: 'asset', code: 'ETH', name: 'Ether', type: 'CRYPTO', scale: 18, status: 'AVAILABLE' },
    ]);
  });

  it('shows the assets granted to the organization as ENABLED, and only to it', async () => {
    const { organizationId } = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    const neighbour = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    await kit.prisma.organizationAsset.createMany({
      data: [
        { organizationId, assetCode: 'USDC' },
        { organizationId, assetCode: 'ETH' },
      ],
    });

    const statuses = (await kit.listAssets.execute({ organizationId })).map((asset) => [asset.code, asset.status]);
    expect(statuses).toEqual([
      ['USD', 'AVAILABLE'],
      ['EUR', 'AVAILABLE'],
      ['USDC', 'ENABLED'],
      ['USDT', 'AVAILABLE'],
      ['BTC', 'AVAILABLE'],
      ['ETH', 'ENABLED'],
    ]);
    const neighbourStatuses = await kit.listAssets.execute({ organizationId: neighbour.organizationId });
    expect(neighbourStatuses.every((asset) => asset.status === 'AVAILABLE')).toBe(true);
  });

  it('answers organization_not_found for an unknown organization', async () => {
    await expect(kit.listAssets.execute({ organizationId: 'org_ffffffffffffffffffffffffffff0000' })).rejects.toMatchObject({
      name: 'OrganizationNotFoundError',
      code: 'organization_not_found',
    });
  });
});
