import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('RevokeApiKeyUseCase (in memory)', () => {
  let org: OrganizationInMemory;

  beforeEach(() => {
    org = organizationInMemory();
  });

  it('revokes one key now and leaves the organization’s other keys working', async () => {
    const root = await org.root();
    const other = await org.createApiKey.execute({ organizationId: root.organizationId });
    expect(await org.revokeApiKey.execute({ keyId: root.keyId })).toEqual({ keyId: root.keyId, organizationId: root.organizationId, revokedAt: '2026-11-23T08:00:00.000Z' });
    expect(org.apiKeys.rows.get(root.keyId)?.revokedAt).toEqual(new Date('2026-11-23T08:00:00.000Z'));
    await expect(org.authenticateApiKey.execute({ keyHash: org.hasher.hash(root.apiKey) })).rejects.toMatchObject({ code: 'authentication_failed' });
    expect(await org.authenticateApiKey.execute({ keyHash: org.hasher.hash(other.apiKey) })).toEqual({ organizationId: root.organizationId, keyId: other.keyId });
  });

  it('keeps the first revocation time when revoked again', async () => {
    const root = await org.root();
    const revoked = await org.revokeApiKey.execute({ keyId: root.keyId });
    org.clock.advance(24 * 3600 * 1000);
    expect(await org.revokeApiKey.execute({ keyId: root.keyId })).toEqual(revoked);
    expect(org.apiKeys.rows.get(root.keyId)?.revokedAt?.toISOString()).toBe(revoked.revokedAt);
  });

  it('answers not_found for an unknown key', async () => {
    await expect(org.revokeApiKey.execute({ keyId: 'key_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ name: 'ApiKeyNotFoundError', code: 'not_found' });
  });
});
