import { hashApiKey } from '@pfs/contracts';
import { createOrganizationTestKit, FixedClock, uniqueName, type OrganizationTestKit } from '../support/organization-test-kit';


describe('RevokeApiKeyUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T06:00:00.000Z'));
  let kit: OrganizationTestKit;

  beforeAll(() => {
    kit = createOrganizationTestKit({ clock });
  });

  afterAll(async () => {
    await kit.close();
  });

  it('revokes one key, keeps the first revocation time on a repeat, and leaves the other keys working', async () => {
    const organization = await kit.createRootOrganization.execute({ name: uniqueName(), approved: true });
    const other = await kit.createApiKey.execute({ organizationId: organization.organizationId });

    const revoked = await kit.revokeApiKey.execute({ keyId: organization.keyId });
    expect(revoked).toEqual({
      keyId: organization.keyId,
      organizationId: organization.organizationId,
      revokedAt: '2026-11-21T06:00:00.000Z',
    });
    const row = await kit.prisma.apiKey.findUniqueOrThrow({ where: { id: organization.keyId } });
    expect(row.revokedAt).toEqual(new Date('2026-11-21T06:00:00.000Z'));

    clock.time = new Date('2026-11-22T00:00:00.000Z');
    expect(await kit.revokeApiKey.execute({ keyId: organization.keyId })).toEqual(revoked);

    await expect(
      kit.authenticate.execute({ keyHash: hashApiKey(organization.apiKey, kit.config.apiKeyPepper) }),
    ).rejects.toMatchObject({ code: 'authentication_failed' });
    expect(await kit.authenticate.execute({ keyHash: hashApiKey(other.apiKey, kit.config.apiKeyPepper) })).toEqual({
      organizationId: organization.organizationId,
      keyId: other.keyId,
    });
  });

  it('answers not_found for an unknown key', async () => {
    await expect(kit.revokeApiKey.execute({ keyId: 'key_ffffffffffffffffffffffffffff0000' })).rejects.toMatchObject({
      name: 'ApiKeyNotFoundError',
      code: 'not_found',
    });
  });
});
