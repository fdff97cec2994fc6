import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('SuspendReferralsUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let referrer: string;

  beforeEach(async () => {
    org = organizationInMemory();
    referrer = (await org.root('Referrer')).organizationId;
  });

  it('suspends switched-on referrals now, keeping when they were switched on', async () => {
    await org.createReferralInvite.execute({ referrerOrganizationId: referrer, email: 'ada@example.com' });
    org.clock.set('2026-11-24T08:00:00.000Z');
    expect(await org.suspendReferrals.execute({ organizationId: referrer })).toEqual({
      organizationId: referrer,
      enabledAt: '2026-11-23T08:00:00.000Z',
      suspendedAt: '2026-11-24T08:00:00.000Z',
    });
    expect(org.programs.rows.get(referrer)?.suspendedAt).toEqual(new Date('2026-11-24T08:00:00.000Z'));
  });

  it('keeps the first suspension time when repeated', async () => {
    await org.suspendReferrals.execute({ organizationId: referrer });
    org.clock.advance(3600_000);
    expect((await org.suspendReferrals.execute({ organizationId: referrer })).suspendedAt).toBe('2026-11-23T08:00:00.000Z');
  });

  it('suspends referrals never switched on, so the first invite is refused with forbidden', async () => {
    expect(await org.suspendReferrals.execute({ organizationId: referrer })).toEqual({ organizationId: referrer, enabledAt: null, suspendedAt: '2026-11-23T08:00:00.000Z' });
    await expect(org.createReferralInvite.execute({ referrerOrganizationId: referrer, email: 'x@example.com' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(org.invites.rows.size).toBe(0);
  });

  it('answers organization_not_found for an unknown organization and records nothing', async () => {
    await expect(org.suspendReferrals.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
    expect(org.programs.rows.size).toBe(0);
  });
});
