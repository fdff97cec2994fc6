import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('GetAuthorizationUseCase (in memory)', () => {
  let org: OrganizationInMemory;

  beforeEach(() => {
    org = organizationInMemory();
  });

  it('shows the authorization to either party', async () => {
    const grantor = (await org.root('Grantor')).organizationId;
    const grantee = (await org.root('Grantee')).organizationId;
    const { authorization } = await org.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });
    for (const party of [grantor, grantee]) {
      expect(await org.getAuthorization.execute({ organizationId: party, authorizationId: authorization.authorizationId })).toEqual(authorization);
    }
  });

  it('answers authorization_not_found to a stranger and for an unknown id', async () => {
    const grantor = (await org.root('Grantor')).organizationId;
    const grantee = (await org.root('Grantee')).organizationId;
    const stranger = (await org.root('Stranger')).organizationId;
    const { authorization } = await org.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });
    for (const authorizationId of [authorization.authorizationId, 'loa_ffffffffffffffffffffffffffffffff']) {
      await expect(org.getAuthorization.execute({ organizationId: stranger, authorizationId })).rejects.toMatchObject({
        code: 'authorization_not_found',
        message: expect.stringContaining(authorizationId),
      });
    }
  });
});
