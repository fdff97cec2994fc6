import { hashApiKey } from '@pfs/contracts';
import { createOrganizationTestKit, uniqueName, type OrganizationTestKit } from '../support/organization-test-kit';


describe('CreateApiKeyUseCase (real PostgreSQL)', () => {
  let kit: OrganizationTestKit;

  beforeAll(() => {
    kit = createOrganizationTestKit();
  });

  afterAll(async () => {
    await kit.close();
  });

  it('adds a second, distinct key that authenticates as the same organization', async () => {
    const organization = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    const second = await kit.createApiKey.execute({ organizationId: organization.organizationId });

    expect(second.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(second.apiKey).not.toBe(organization.apiKey);
    expect(second.keyId).not.toBe(organization.keyId);
    expect(await kit.authenticate.execute({ keyHash: hashApiKey(second.apiKey, kit.config.apiKeyPepper) })).toEqual({
      organizationId: organization.organizationId,
      keyId: second.keyId,
    });
    expect(await kit.prisma.apiKey.count({ where: { organizationId: organization.organizationId } })).toBe(2);
  });

  it('answers organization_not_found for an unknown organization and stores no key', async () => {
    const organizationId = 'org_ffffffffffffffffffffffffffff0000';
    await expect(kit.createApiKey.execute({ organizationId })).rejects.toMatchObject({
      name: 'OrganizationNotFoundError',
      code: 'organization_not_found',
    });
    expect(await kit.prisma.apiKey.count({ where: { organizationId } })).toBe(0);
  });
});
