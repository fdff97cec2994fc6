import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('ResumeReferralsUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let referrer: string;

  beforeEach(async () => {
    org = organizationInMemory();
    referrer = (await org.root('Referrer')).organizationId;
  });

  it('lifts a suspension, keeping when referrals were switched on, and lets the next invite through', async () => {
    await org.createReferralInvite.execute({ referrerOrganizationId: referrer, email: 'ada@example.com' });
    await org.suspendReferrals.execute({ organizationId: referrer });
    expect(await org.resumeReferrals.execute({ organizationId: referrer })).toEqual({ organizationId: referrer, enabledAt: '2026-11-23T08:00:00.000Z', suspendedAt: null });
    expect(org.programs.rows.get(referrer)?.suspendedAt).toBeNull();
    expect((await org.createReferralInvite.execute({ referrerOrganizationId: referrer, email: 'bob@example.com' })).created).toBe(true);
  });

  it('lifts a suspension made before any invite: the first invite then switches referrals on', async () => {
    await org.suspendReferrals.execute({ organizationId: referrer });
    expect(await org.resumeReferrals.execute({ organizationId: referrer })).toEqual({ organizationId: referrer, enabledAt: null, suspendedAt: null });
    org.clock.advance(60_000);
    await org.createReferralInvite.execute({ referrerOrganizationId: referrer, email: 'x@example.com' });
    expect(org.programs.rows.get(referrer)?.enabledAt).toEqual(org.clock.now());
  });

  it('is a no-op that stores nothing when referrals are not suspended', async () => {
    expect(await org.resumeReferrals.execute({ organizationId: referrer })).toEqual({ organizationId: referrer, enabledAt: null, suspendedAt: null });
    expect(org.programs.rows.size).toBe(0);
  });

  it('answers organization_not_found for an unknown organization and records nothing', async () => {
    await expect(org.resumeReferrals.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
    expect(org.programs.rows.size).toBe(0);
  });
});
