import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('GetEffectiveSubOrgTierUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;
  let client: string;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker')).organizationId;
    client = (await org.createOrganization.execute({ callerOrganizationId: broker, name: 'Client', entityType: 'INDIVIDUAL', country: 'FR', email: 'c@example.com' }))
      .organizationId;
  });

  const assignAt = async (time: string, tierKey: string | null) => {
    org.clock.set(time);
    await org.assignSubOrgTier.execute({ callerOrganizationId: broker, organizationId: client, tierKey });
  };
  const keyAt = async (at?: string) => (await org.getEffectiveSubOrgTier.execute({ organizationId: client, at }))?.key ?? null;

  it('reads the tier in force at each time: none, vip, preferred, then removed; now when no time is given', async () => {
    await assignAt('2026-11-21T10:00:00.000Z', 'vip');
    await assignAt('2026-11-21T11:00:00.000Z', 'preferred');
    await assignAt('2026-11-21T12:00:00.000Z', null);
    expect(await keyAt('2026-11-21T09:59:59.999Z')).toBeNull();
    expect(await org.getEffectiveSubOrgTier.execute({ organizationId: client, at: '2026-11-21T10:00:00.000Z' })).toEqual({ key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 });
    expect(await keyAt('2026-11-21T11:30:00.000Z')).toBe('preferred');
    expect(await keyAt('2026-11-21T12:00:00.000Z')).toBeNull();
    org.clock.set('2026-11-21T11:30:00.000Z');
    expect(await keyAt()).toBe('preferred');
  });

  it('uses the later of two assignments made at the same time', async () => {
    await assignAt('2026-11-21T10:00:00.000Z', 'standard');
    await assignAt('2026-11-21T10:00:00.000Z', 'vip');
    expect(await keyAt()).toBe('vip');
  });

  it('answers organization_not_found for an unknown organization and invalid_request for a malformed time', async () => {
    await expect(org.getEffectiveSubOrgTier.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
    await expect(org.getEffectiveSubOrgTier.execute({ organizationId: broker, at: 'yesterday' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await org.getEffectiveSubOrgTier.execute({ organizationId: broker })).toBeNull();
  });
});
