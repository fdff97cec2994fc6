import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('AuthenticateApiKeyUseCase (in memory)', () => {
  let org: OrganizationInMemory;

  beforeEach(() => {
    org = organizationInMemory();
  });

  it('resolves the hash of an active key to its organization and key', async () => {
    const root = await org.root();
    expect(await org.authenticateApiKey.execute({ keyHash: org.hasher.hash(root.apiKey) })).toEqual({ organizationId: root.organizationId, keyId: root.keyId });
  });

  it('answers authentication_failed to an unknown hash', async () => {
    await org.root();
    await expect(org.authenticateApiKey.execute({ keyHash: org.hasher.hash('sk_test_unknown') })).rejects.toMatchObject({
      name: 'AuthenticationFailedError',
      code: 'authentication_failed',
    });
  });

  it('answers authentication_failed to a revoked key', async () => {
    const root = await org.root();
    await org.revokeApiKey.execute({ keyId: root.keyId });
    await expect(org.authenticateApiKey.execute({ keyHash: org.hasher.hash(root.apiKey) })).rejects.toMatchObject({ code: 'authentication_failed' });
  });
});
