import { generateApiKey, hashApiKey } from '@pfs/contracts';
import { createOrganizationTestKit, uniqueName, type OrganizationTestKit } from '../support/organization-test-kit';


describe('AuthenticateApiKeyUseCase (real PostgreSQL)', () => {
  let kit: OrganizationTestKit;

  beforeAll(() => {
    kit = createOrganizationTestKit();
  });

  afterAll(async () => {
    await kit.close();
  });

  it('resolves the hash of an active key to its organization and key', async () => {
    const organization = await kit.createRootOrganization.execute({ name: uniqueName(), approved: false });
    expect(await kit.authenticate.execute({ keyHash: hashApiKey(organization.apiKey, kit.config.apiKeyPepper) })).toEqual({
      organizationId: organization.organizationId,
      keyId: organization.keyId,
    });
  });

  it('refuses an unknown key and a key hashed with another pepper alike', async () => {
    const organization = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    for (const keyHash of [
      hashApiKey(generateApiKey('sandbox'), kit.config.apiKeyPepper),
      hashApiKey(organization.apiKey, `${kit.config.apiKeyPepper}-other`),
    ]) {
      await expect(kit.authenticate.execute({ keyHash })).rejects.toMatchObject({
        name: 'AuthenticationFailedError',
        code: 'authentication_failed',
      });
    }
  });

  it('refuses a revoked key', async () => {
    const organization = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    await kit.revokeApiKey.execute({ keyId: organization.keyId });
    await expect(
      kit.authenticate.execute({ keyHash: hashApiKey(organization.apiKey, kit.config.apiKeyPepper) }),
    ).rejects.toMatchObject({ code: 'authentication_failed' });
  });
});
