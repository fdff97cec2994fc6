import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('CreateAuthorizationUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let grantor: string;
  let grantee: string;

  beforeEach(async () => {
    org = organizationInMemory();
    grantor = (await org.root('Grantor')).organizationId;
    grantee = (await org.root('Grantee')).organizationId;
  });

  const grant = (granteeOrganizationId = grantee) => org.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId });

  it('stores an ACTIVE authorization running one way', async () => {
    const first = await grant();
    expect(first).toEqual({
      created: true,
      authorization: {
        object: 'authorization',
        authorizationId: expect.stringMatching(/^loa_/),
        grantorOrganizationId: grantor,
        granteeOrganizationId: grantee,
        status: 'ACTIVE',
        createdAt: org.clock.now().toISOString(),
        revokedAt: null,
      },
    });
    expect(await org.authorizations.hasActiveAuthorization(grantor, grantee)).toBe(true);
    expect(await org.authorizations.hasActiveAuthorization(grantee, grantor)).toBe(false);
  });

  it('returns the ACTIVE one again without storing another; after revocation a grant is a new one', async () => {
    const first = await grant();
    expect(await grant()).toEqual({ authorization: first.authorization, created: false });
    expect(org.authorizations.rows.size).toBe(1);
    await org.revokeAuthorization.execute({ organizationId: grantor, authorizationId: first.authorization.authorizationId });
    const renewed = await grant();
    expect(renewed.created).toBe(true);
    expect(renewed.authorization.authorizationId).not.toBe(first.authorization.authorizationId);
  });

  it('answers organization_not_found for an unknown grantee and invalid_request for the caller itself, recording nothing', async () => {
    const missing = 'org_ffffffffffffffffffffffffffffffff';
    await expect(grant(missing)).rejects.toMatchObject({ code: 'organization_not_found', message: expect.stringContaining(missing) });
    await expect(grant(grantor)).rejects.toMatchObject({ code: 'invalid_request', message: 'granteeOrganizationId: must be another organization than the caller' });
    expect(org.authorizations.rows.size).toBe(0);
  });
});
