import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('CreateApiKeyUseCase (in memory)', () => {
  let org: OrganizationInMemory;

  beforeEach(() => {
    org = organizationInMemory();
  });

  it('stores a second, distinct key, hashed, that authenticates as the same organization', async () => {
    const root = await org.root();
    const second = await org.createApiKey.execute({ organizationId: root.organizationId });
    expect(second.apiKey).toMatch(/^sk_test_[0-9a-f]{64}$/);
    expect(second).not.toMatchObject({ apiKey: root.apiKey, keyId: root.keyId });
    expect(org.apiKeys.rows.get(second.keyId)).toMatchObject({ organizationId: root.organizationId, keyHash: org.hasher.hash(second.apiKey) });
    expect(await org.authenticateApiKey.execute({ keyHash: org.hasher.hash(second.apiKey) })).toEqual({ organizationId: root.organizationId, keyId: second.keyId });
  });

  it('answers organization_not_found for an unknown organization and records nothing', async () => {
    await org.root();
    await expect(org.createApiKey.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({
      name: 'OrganizationNotFoundError',
      code: 'organization_not_found',
    });
    expect(org.apiKeys.rows.size).toBe(1);
  });
});
