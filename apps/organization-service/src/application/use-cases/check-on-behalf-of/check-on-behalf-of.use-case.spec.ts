import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('CheckOnBehalfOfUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;
  let client: string;
  let stranger: string;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker')).organizationId;
    stranger = (await org.root('Stranger')).organizationId;
    client = (await org.createOrganization.execute({ callerOrganizationId: broker, name: 'Client', entityType: 'INDIVIDUAL', country: 'FR', email: 'c@example.com' }))
      .organizationId;
  });

  const check = (callerOrganizationId: string, targetOrganizationId: string, mode: 'creator' | 'creator_or_loa') =>
    org.checkOnBehalfOf.execute({ callerOrganizationId, targetOrganizationId, mode });

  it.each(['creator', 'creator_or_loa'] as const)('lets the creator act for its client (%s)', async (mode) => {
    await expect(check(broker, client, mode)).resolves.toEqual({ organizationId: client });
  });

  it('answers forbidden to a stranger, a client for its creator and an organization for itself', async () => {
    for (const [caller, target] of [[stranger, client], [client, broker], [broker, broker]]) {
      for (const mode of ['creator', 'creator_or_loa'] as const) {
        await expect(check(caller, target, mode)).rejects.toMatchObject({ name: 'OnBehalfOfForbiddenError', code: 'forbidden', message: expect.stringContaining(target) });
      }
    }
  });

  it('accepts an ACTIVE LOA grantee only where LOAs are allowed, one way, and no longer once revoked', async () => {
    const { authorization } = await org.createAuthorization.execute({ grantorOrganizationId: client, granteeOrganizationId: stranger });
    await expect(check(stranger, client, 'creator_or_loa')).resolves.toEqual({ organizationId: client });
    await expect(check(stranger, client, 'creator')).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/Only the organization that created/) });
    await expect(check(client, stranger, 'creator_or_loa')).rejects.toMatchObject({ code: 'forbidden' });
    await org.revokeAuthorization.execute({ organizationId: client, authorizationId: authorization.authorizationId });
    await expect(check(stranger, client, 'creator_or_loa')).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('answers organization_not_found for an unknown target', async () => {
    await expect(check(broker, 'org_ffffffffffffffffffffffffffffffff', 'creator')).rejects.toMatchObject({ name: 'OrganizationNotFoundError', code: 'organization_not_found' });
  });
});
