import { SystemClock } from '@pfs/contracts';
import { createOrganizationTestKit, uniqueName, type OrganizationTestKit } from '../support/organization-test-kit';
import { EnableAssetUseCase } from '../../src/application/use-cases/enable-asset/enable-asset.use-case';


describe('EnableAssetUseCase (real PostgreSQL)', () => {
  let kit: OrganizationTestKit;
  let enableAsset: EnableAssetUseCase;

  beforeAll(() => {
    kit = createOrganizationTestKit();
    enableAsset = new EnableAssetUseCase(kit.unitOfWork, kit.organizations, kit.assets, new SystemClock());
  });

  afterAll(async () => {
    await kit.close();
  });

  it('turns the asset ENABLED for that organization only, once however often and concurrently it is called', async () => {
    const { organizationId } = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    const neighbour = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });

    const answers = await Promise.all([1, 2, 3].map(() => enableAsset.execute({ organizationId, asset: 'USDT' })));
    const first = await kit.prisma.organizationAsset.findUniqueOrThrow({ where: { organizationId_assetCode: { organizationId, assetCode: 'USDT' } } });
    await enableAsset.execute({ organizationId, asset: 'USDT' });

    expect(answers).toEqual([1, 2, 3].map(() => ({ object: 'asset', code: 'USDT', name: 'Tether USD', type: 'CRYPTO', scale: 6, status: 'ENABLED' })));
    expect(await kit.prisma.organizationAsset.findMany({ where: { organizationId } })).toEqual([first]);
    const statuses = Object.fromEntries((await kit.listAssets.execute({ organizationId })).map((asset) => [asset.code, asset.status]));
    expect(statuses).toEqual({ USD: 'AVAILABLE', EUR: 'AVAILABLE', USDC: 'AVAILABLE', USDT: 'ENABLED', BTC: 'AVAILABLE', ETH: 'AVAILABLE' });
    const neighbourStatuses = await kit.listAssets.execute({ organizationId: neighbour.organizationId });
    expect(neighbourStatuses.every((asset) => asset.status === 'AVAILABLE')).toBe(true);
  });

  it('answers not_found for an asset outside the catalog and organization_not_found for an unknown organization', async () => {
    const { organizationId } = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });

    await expect(enableAsset.execute({ organizationId, asset: 'DOGE' })).rejects.toMatchObject({ code: 'not_found', message: 'No asset DOGE was found.' });
    await expect(enableAsset.execute({ organizationId: 'org_ffffffffffffffffffffffffffff0001', asset: 'USD' })).rejects.toMatchObject({
      code: 'organization_not_found',
    });
    expect(await kit.prisma.organizationAsset.count({ where: { organizationId } })).toBe(0);
  });
});
