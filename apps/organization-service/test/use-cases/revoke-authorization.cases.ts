import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock } from '../support/organization-test-kit';


describe('RevokeAuthorizationUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit({ clock });
  });

  afterAll(async () => {
    await kit.close();
  });

  it.each(['grantor', 'grantee'] as const)('lets the %s revoke; revoking again keeps the first time', async (party) => {
    const grantor = await kit.rootOrganization('Grantor');
    const grantee = await kit.rootOrganization('Grantee');
    const { authorization } = await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });
    const organizationId = party === 'grantor' ? grantor : grantee;

    clock.time = new Date('2026-11-21T11:00:00.000Z');
    const revoked = await kit.revokeAuthorization.execute({ organizationId, authorizationId: authorization.authorizationId });
    expect(revoked).toEqual({ ...authorization, status: 'REVOKED', revokedAt: '2026-11-21T11:00:00.000Z' });
    expect(await kit.authorizations.hasActiveAuthorization(grantor, grantee)).toBe(false);

    clock.time = new Date('2026-11-21T12:00:00.000Z');
    expect(await kit.revokeAuthorization.execute({ organizationId: grantor, authorizationId: authorization.authorizationId })).toEqual(revoked);
  });

  it('answers authorization_not_found to an organization that is not a party, and leaves it ACTIVE', async () => {
    const grantor = await kit.rootOrganization('Grantor');
    const grantee = await kit.rootOrganization('Grantee');
    const stranger = await kit.rootOrganization('Stranger');
    const { authorization } = await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });
    await expect(kit.revokeAuthorization.execute({ organizationId: stranger, authorizationId: authorization.authorizationId })).rejects.toMatchObject({
      code: 'authorization_not_found',
    });
    expect(await kit.authorizations.hasActiveAuthorization(grantor, grantee)).toBe(true);
  });
});
