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
      referrerOrganizationId: null,
    });
  });

  it('names the referrer of an organization that signed up through a referral invite (a trade’s commission goes to it)', async () => {
    const { referralInvite } = await org.createReferralInvite.execute({ referrerOrganizationId: broker, email: 'ada@example.com' });
    const { organization } = await org.acceptReferralInvite.execute({
      referrerOrganizationId: broker,
      referralInviteId: referralInvite.referralInviteId,
      email: 'ada@example.com',
      name: 'Ada',
    });
    expect(await org.getOrganizationStanding.execute({ organizationId: organization.organizationId })).toMatchObject({
      parentOrganizationId: null,
      referrerOrganizationId: broker,
    });
    expect(await org.getOrganizationStanding.execute({ organizationId: client })).toMatchObject({ parentOrganizationId: broker, referrerOrganizationId: null });
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
