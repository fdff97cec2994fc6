import { isId, newId } from '@pfs/contracts';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';


describe('CreateAuthorizationUseCase (real PostgreSQL)', () => {
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit();
  });

  afterAll(async () => {
    await kit.close();
  });

  it('grants an ACTIVE authorization, and returns the same one while it is active', async () => {
    const grantor = await kit.rootOrganization('Grantor');
    const grantee = await kit.rootOrganization('Grantee');
    const first = await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });
    expect(first.created).toBe(true);
    expect(first.authorization).toEqual({
      object: 'authorization',
      authorizationId: expect.any(String),
      grantorOrganizationId: grantor,
      granteeOrganizationId: grantee,
      status: 'ACTIVE',
      createdAt: expect.any(String),
      revokedAt: null,
    });
    expect(isId('authorization', first.authorization.authorizationId)).toBe(true);
    expect(await kit.authorizations.hasActiveAuthorization(grantor, grantee)).toBe(true);
    // The grant runs one way.
    expect(await kit.authorizations.hasActiveAuthorization(grantee, grantor)).toBe(false);

    const again = await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });
    expect(again).toEqual({ authorization: first.authorization, created: false });

    // After revocation a new grant is a new authorization.
    await kit.revokeAuthorization.execute({ organizationId: grantor, authorizationId: first.authorization.authorizationId });
    const renewed = await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });
    expect(renewed.created).toBe(true);
    expect(renewed.authorization.authorizationId).not.toBe(first.authorization.authorizationId);
  });

  it('creates exactly one when the same grant races', async () => {
    const grantor = await kit.rootOrganization('Racer');
    const grantee = await kit.rootOrganization('Grantee');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee })),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.authorization.authorizationId)).size).toBe(1);
    expect(await kit.prisma.organizationAuthorization.count({ where: { grantorOrganizationId: grantor } })).toBe(1);
  });

  it('answers organization_not_found for an unknown grantee and invalid_request for the caller itself', async () => {
    const grantor = await kit.rootOrganization('Grantor');
    const missing = newId('organization');
    await expect(kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: missing })).rejects.toMatchObject({
      code: 'organization_not_found',
      message: expect.stringContaining(missing),
    });
    await expect(kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantor })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'granteeOrganizationId: must be another organization than the caller',
    });
    expect(await kit.prisma.organizationAuthorization.count({ where: { grantorOrganizationId: grantor } })).toBe(0);
  });
});
