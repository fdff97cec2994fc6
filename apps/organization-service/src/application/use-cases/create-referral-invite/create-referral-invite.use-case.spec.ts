import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('CreateReferralInviteUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let referrer: string;

  beforeEach(async () => {
    org = organizationInMemory();
    referrer = (await org.root('Referrer')).organizationId;
  });

  const invite = (email: string) => org.createReferralInvite.execute({ referrerOrganizationId: referrer, email });

  it('issues a PENDING invite for 7 days, normalized, with its sign-up link, and switches referrals on', async () => {
    const first = await invite(' ADA@Example.com ');
    expect(first.created).toBe(true);
    expect(first.referralInvite).toMatchObject({
      email: 'ada@example.com',
      status: 'PENDING',
      createdAt: '2026-11-23T08:00:00.000Z',
      expiresAt: '2026-11-30T08:00:00.000Z',
      url: expect.stringContaining(first.referralInvite.referralInviteId),
    });
    expect(org.invites.rows.size).toBe(1);
    expect(org.programs.rows.get(referrer)).toMatchObject({ enabledAt: new Date('2026-11-23T08:00:00.000Z'), suspendedAt: null });
  });

  it('renews the same invite (same id, new expiresAt) instead of storing another', async () => {
    const first = await invite('ada@example.com');
    org.clock.set('2026-12-01T00:00:00.000Z');
    expect(await invite('ada@example.com')).toEqual({
      created: false,
      referralInvite: { ...first.referralInvite, status: 'PENDING', expiresAt: '2026-12-08T00:00:00.000Z' },
    });
    expect(org.invites.rows.size).toBe(1);
  });

  it('answers referral_invite_already_accepted to renewing an accepted invite, and validation_error to a bad email', async () => {
    const { referralInvite } = await invite('ada@example.com');
    await org.acceptReferralInvite.execute({ referrerOrganizationId: referrer, referralInviteId: referralInvite.referralInviteId, email: 'ada@example.com', name: 'Ada' });
    await expect(invite('ada@example.com')).rejects.toMatchObject({ code: 'referral_invite_already_accepted' });
    await expect(invite('nope')).rejects.toMatchObject({ code: 'validation_error' });
    expect(org.invites.rows.size).toBe(1);
  });

  it('answers forbidden while referrals are suspended, recording nothing, and issues again once resumed', async () => {
    const issued = await invite('ada@example.com');
    await org.suspendReferrals.execute({ organizationId: referrer });
    const before = [...org.invites.rows.values()];
    for (const email of ['ada@example.com', 'bob@example.com']) {
      await expect(invite(email)).rejects.toMatchObject({ name: 'ReferralsSuspendedError', code: 'forbidden' });
    }
    expect([...org.invites.rows.values()]).toEqual(before);
    // The link already issued still works.
    await org.acceptReferralInvite.execute({ referrerOrganizationId: referrer, referralInviteId: issued.referralInvite.referralInviteId, email: 'ada@example.com', name: 'Ada' });
    await org.resumeReferrals.execute({ organizationId: referrer });
    expect((await invite('bob@example.com')).created).toBe(true);
  });

  it('answers organization_not_found for an unknown referrer and records nothing', async () => {
    await expect(org.createReferralInvite.execute({ referrerOrganizationId: 'org_ffffffffffffffffffffffffffffffff', email: 'x@example.com' })).rejects.toMatchObject({
      code: 'organization_not_found',
    });
    expect({ invites: org.invites.rows.size, programs: org.programs.rows.size }).toEqual({ invites: 0, programs: 0 });
  });
});
