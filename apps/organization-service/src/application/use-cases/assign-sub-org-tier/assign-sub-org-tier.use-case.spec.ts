import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('AssignSubOrgTierUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;
  let client: string;

  const clientOf = async (parent: string) =>
    (await org.createOrganization.execute({ callerOrganizationId: parent, name: 'Client', entityType: 'INDIVIDUAL', country: 'FR', email: 'c@example.com' })).organizationId;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker')).organizationId;
    client = await clientOf(broker);
  });

  it('sets, changes and removes the tier of a PENDING client, appending each change with its time and author', async () => {
    expect(await org.assignSubOrgTier.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'vip' })).toEqual({
      object: 'sub_org_tier_assignment',
      organizationId: client,
      tier: { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 },
    });
    org.clock.advance(1000);
    expect(await org.assignSubOrgTier.execute({ callerOrganizationId: broker, organizationId: client, tierKey: null })).toEqual({
      object: 'sub_org_tier_assignment',
      organizationId: client,
      tier: null,
    });
    expect(org.assignments.history).toEqual([
      { organizationId: client, tierKey: 'vip', assignedAt: new Date('2026-11-23T08:00:00.000Z'), assignedBy: broker },
      { organizationId: client, tierKey: null, assignedAt: new Date('2026-11-23T08:00:01.000Z'), assignedBy: broker },
    ]);
  });

  it('answers forbidden to anyone but the creator (the client itself, a stranger, the broker for itself) and records nothing', async () => {
    const other = (await org.root('Other')).organizationId;
    for (const [caller, target] of [[other, client], [client, client], [broker, broker]]) {
      await expect(org.assignSubOrgTier.execute({ callerOrganizationId: caller, organizationId: target, tierKey: 'vip' })).rejects.toMatchObject({ code: 'forbidden' });
    }
    expect(org.assignments.history).toEqual([]);
  });

  it('answers sub_org_tier_not_found, sub_org_tier_not_available and organization_not_found, recording nothing', async () => {
    // Ids are sequential: a new kit restricting that broker's id builds the same broker and client again.
    org = organizationInMemory({ tierRestrictions: new Map([[broker, ['standard', 'preferred']]]) });
    expect((await org.root('Broker')).organizationId).toBe(broker);
    expect(await clientOf(broker)).toBe(client);
    await expect(org.assignSubOrgTier.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'gold' })).rejects.toMatchObject({ code: 'sub_org_tier_not_found' });
    await expect(org.assignSubOrgTier.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'vip' })).rejects.toMatchObject({ code: 'sub_org_tier_not_available' });
    await expect(
      org.assignSubOrgTier.execute({ callerOrganizationId: broker, organizationId: 'org_ffffffffffffffffffffffffffffffff', tierKey: 'standard' }),
    ).rejects.toMatchObject({ code: 'organization_not_found' });
    expect(org.assignments.history).toEqual([]);
    expect((await org.assignSubOrgTier.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'preferred' })).tier?.key).toBe('preferred');
  });

  it('lets the platform operator set any organization’s tier from the whole catalog, recorded as the operator’s', async () => {
    org = organizationInMemory({ tierRestrictions: new Map([[broker, ['standard']]]) });
    const root = (await org.root('Referred')).organizationId;
    expect((await org.assignSubOrgTier.execute({ callerOrganizationId: null, organizationId: root, tierKey: 'preferred' })).tier?.key).toBe('preferred');
    expect(org.assignments.history).toEqual([{ organizationId: root, tierKey: 'preferred', assignedAt: new Date('2026-11-23T08:00:00.000Z'), assignedBy: 'operator' }]);
    await expect(org.assignSubOrgTier.execute({ callerOrganizationId: null, organizationId: root, tierKey: 'gold' })).rejects.toMatchObject({ code: 'sub_org_tier_not_found' });
  });
});
