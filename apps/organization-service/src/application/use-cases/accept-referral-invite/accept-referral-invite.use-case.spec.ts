import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('AcceptReferralInviteUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let referrer: string;
  let inviteId: string;

  beforeEach(async () => {
    org = organizationInMemory();
    referrer = (await org.root('Referrer')).organizationId;
    inviteId = (await org.createReferralInvite.execute({ referrerOrganizationId: referrer, email: 'ada@example.com' })).referralInvite.referralInviteId;
  });

  const accept = (override: Partial<Parameters<OrganizationInMemory['acceptReferralInvite']['execute']>[0]> = {}) =>
    org.acceptReferralInvite.execute({ referrerOrganizationId: referrer, referralInviteId: inviteId, email: ' ADA@example.com ', name: ' Ada ', ...override });
  const counts = () => ({ organizations: org.organizations.rows.size, keys: org.apiKeys.rows.size, events: org.outbox.events.length });

  it('creates a PENDING root organization referred by the inviter, with a working key, and appends organization.created', async () => {
    const { organization, apiKey } = await accept();
    expect(organization).toMatchObject({ name: 'Ada', email: 'ada@example.com', verificationStatus: 'PENDING', parentOrganizationId: null, referrerOrganizationId: referrer });
    expect(await org.authenticateApiKey.execute({ keyHash: org.hasher.hash(apiKey) })).toMatchObject({ organizationId: organization.organizationId });
    expect(org.outbox.dataOf('organization.created').at(-1)).toEqual({
      organizationId: organization.organizationId,
      primaryAccountId: organization.primaryAccountId,
      name: 'Ada',
      parentOrganizationId: null,
      referrerOrganizationId: referrer,
      createdAt: org.clock.now().toISOString(),
    });
    expect(org.invites.rows.get(inviteId)?.acceptedOrganizationId).toBe(organization.organizationId);
  });

  it('answers referral_invite_already_accepted to a second sign-up and records nothing', async () => {
    await accept();
    const before = counts();
    await expect(accept()).rejects.toMatchObject({ code: 'referral_invite_already_accepted' });
    expect(counts()).toEqual(before);
  });

  it('answers forbidden to another email and records nothing', async () => {
    const before = counts();
    await expect(accept({ email: 'eve@example.com' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(counts()).toEqual(before);
  });

  it('answers not_found for another referrer’s invite and for an expired one, recording nothing', async () => {
    const other = (await org.root('Other')).organizationId;
    const before = counts();
    await expect(accept({ referrerOrganizationId: other })).rejects.toMatchObject({ code: 'not_found' });
    org.clock.advance(7 * 24 * 3600 * 1000);
    await expect(accept()).rejects.toMatchObject({ code: 'not_found' });
    expect(counts()).toEqual(before);
  });
});
