import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('GetOrganizationStandingUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;
  let client: string;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker')).organizationId;
    client = (await org.createOrganization.execute({ callerOrganizationId: broker, name: 'Client', entityType: 'INDIVIDUAL', country: 'FR', email: null }))
      .organizationId;
  });

  it('gives a root organization its status and no creator', async () => {
    expect(await org.getOrganizationStanding.execute({ organizationId: broker })).toEqual({
      organizationId: broker,
      verificationStatus: 'APPROVED',
      parentOrganizationId: null,
      parentHoldsActiveLoa: false,
    });
  });

  it('says whether a client holds an ACTIVE LOA for its creator, as of now', async () => {
    expect(await org.getOrganizationStanding.execute({ organizationId: client })).toMatchObject({
      verificationStatus: 'PENDING',
      parentOrganizationId: broker,
      parentHoldsActiveLoa: false,
    });
    const { authorization } = await org.createAuthorization.execute({ grantorOrganizationId: client, granteeOrganizationId: broker });
    expect(await org.getOrganizationStanding.execute({ organizationId: client })).toMatchObject({ parentHoldsActiveLoa: true });
    await org.revokeAuthorization.execute({ organizationId: client, authorizationId: authorization.authorizationId });
    expect(await org.getOrganizationStanding.execute({ organizationId: client })).toMatchObject({ parentHoldsActiveLoa: false });
  });

  it('answers organization_not_found for an unknown organization', async () => {
    await expect(org.getOrganizationStanding.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({
      code: 'organization_not_found',
    });
  });
});
