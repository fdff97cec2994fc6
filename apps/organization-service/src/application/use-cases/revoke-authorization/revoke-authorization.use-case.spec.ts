import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('RevokeAuthorizationUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let grantor: string;
  let grantee: string;

  beforeEach(async () => {
    org = organizationInMemory();
    grantor = (await org.root('Grantor')).organizationId;
    grantee = (await org.root('Grantee')).organizationId;
  });

  const grant = async () => (await org.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee })).authorization;

  it.each(['grantor', 'grantee'] as const)('lets the %s revoke; revoking again keeps the first time', async (party) => {
    const authorization = await grant();
    org.clock.set('2026-11-23T09:00:00.000Z');
    const revoked = await org.revokeAuthorization.execute({ organizationId: party === 'grantor' ? grantor : grantee, authorizationId: authorization.authorizationId });
    expect(revoked).toEqual({ ...authorization, status: 'REVOKED', revokedAt: '2026-11-23T09:00:00.000Z' });
    expect(await org.authorizations.hasActiveAuthorization(grantor, grantee)).toBe(false);
    org.clock.set('2026-11-23T10:00:00.000Z');
    expect(await org.revokeAuthorization.execute({ organizationId: grantor, authorizationId: authorization.authorizationId })).toEqual(revoked);
  });

  it('answers authorization_not_found to an organization that is not a party, and leaves it ACTIVE', async () => {
    const stranger = (await org.root('Stranger')).organizationId;
    const authorization = await grant();
    await expect(org.revokeAuthorization.execute({ organizationId: stranger, authorizationId: authorization.authorizationId })).rejects.toMatchObject({
      code: 'authorization_not_found',
    });
    expect(await org.authorizations.hasActiveAuthorization(grantor, grantee)).toBe(true);
  });
});
