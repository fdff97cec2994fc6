import { outboxRowsFor } from '../support/organization-test-kit';
import { createTierTestKit } from '../support/tier-test-kit';
import type { AssignSubOrgTierUseCase } from '../../src/application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';
import type { ListSubOrgTiersUseCase } from '../../src/application/use-cases/list-sub-org-tiers/list-sub-org-tiers.use-case';


describe('AssignSubOrgTierUseCase and ListSubOrgTiersUseCase (real PostgreSQL)', () => {
  let kit: ReturnType<typeof createTierTestKit>;
  let assign: AssignSubOrgTierUseCase;
  let list: ListSubOrgTiersUseCase;
  let restricted: string;

  beforeAll(async () => {
    // The restricted broker must exist before the catalog reads its configuration.
    const setup = createTierTestKit();
    restricted = await setup.rootOrganization('Restricted broker');
    await setup.close();
    kit = createTierTestKit({ offers: `${restricted}=standard,preferred` });
    assign = kit.assignTier;
    list = kit.listTiers;
  });

  afterAll(async () => {
    await kit.close();
  });

  const history = (organizationId: string) =>
    kit.prisma.subOrgTierAssignment.findMany({ where: { organizationId }, orderBy: { id: 'asc' }, select: { tierKey: true, assignedBy: true } });

  it('lists every tier to an unrestricted broker and only the offered ones to a restricted one', async () => {
    const broker = await kit.rootOrganization('Broker');
    expect(await list.execute({ callerOrganizationId: broker })).toEqual([
      { object: 'sub_org_tier', key: 'standard', label: 'Standard', spreadBps: 100, referrerShareBps: 0 },
      { object: 'sub_org_tier', key: 'preferred', label: 'Preferred', spreadBps: 60, referrerShareBps: 20 },
      { object: 'sub_org_tier', key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 },
    ]);
    expect((await list.execute({ callerOrganizationId: restricted })).map((tier) => tier.key)).toEqual(['standard', 'preferred']);
  });

  it('sets, changes and removes the tier of a PENDING client, appending each change', async () => {
    const broker = await kit.rootOrganization('Broker');
    const client = await kit.clientOf(broker);
    expect(await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'vip' })).toEqual({
      object: 'sub_org_tier_assignment',
      organizationId: client,
      tier: { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 },
    });
    expect((await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'preferred' })).tier?.key).toBe('preferred');
    expect(await assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: null })).toEqual({
      object: 'sub_org_tier_assignment',
      organizationId: client,
      tier: null,
    });
    expect(await history(client)).toEqual([
      { tierKey: 'vip', assignedBy: broker },
      { tierKey: 'preferred', assignedBy: broker },
      { tierKey: null, assignedBy: broker },
    ]);
    // Each change is announced with the tier it puts in force, numbered after the client's creation.
    const announced = (await outboxRowsFor(kit.prisma, client))
      .map((row) => row.payload as { type: string; sequence: number; data: { tier: { key: string; spreadBps: number } | null } })
      .filter((event) => event.type === 'organization.tier.assigned');
    expect(announced.map((event) => event.data.tier && { key: event.data.tier.key, spreadBps: event.data.tier.spreadBps })).toEqual([
      { key: 'vip', spreadBps: 30 },
      { key: 'preferred', spreadBps: 60 },
      null,
    ]);
    expect(announced.map((event) => event.sequence)).toEqual([3, 4, 5]);
  });

  it('refuses anyone but the creator, even the client itself or an LOA holder', async () => {
    const broker = await kit.rootOrganization('Broker');
    const other = await kit.rootOrganization('Other');
    const client = await kit.clientOf(broker);
    await kit.createAuthorization.execute({ grantorOrganizationId: client, granteeOrganizationId: other });
    for (const caller of [other, client]) {
      await expect(assign.execute({ callerOrganizationId: caller, organizationId: client, tierKey: 'vip' })).rejects.toMatchObject({ code: 'forbidden' });
    }
    await expect(assign.execute({ callerOrganizationId: broker, organizationId: broker, tierKey: 'vip' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await history(client)).toEqual([]);
    expect((await outboxRowsFor(kit.prisma, client)).map((row) => row.type)).not.toContain('organization.tier.assigned');
  });

  it('answers sub_org_tier_not_found, sub_org_tier_not_available and organization_not_found, recording nothing', async () => {
    const broker = await kit.rootOrganization('Broker');
    const client = await kit.clientOf(broker);
    const restrictedClient = await kit.clientOf(restricted);
    await expect(assign.execute({ callerOrganizationId: broker, organizationId: client, tierKey: 'gold' })).rejects.toMatchObject({
      code: 'sub_org_tier_not_found',
    });
    await expect(assign.execute({ callerOrganizationId: restricted, organizationId: restrictedClient, tierKey: 'vip' })).rejects.toMatchObject({
      code: 'sub_org_tier_not_available',
    });
    expect((await assign.execute({ callerOrganizationId: restricted, organizationId: restrictedClient, tierKey: 'preferred' })).tier?.key).toBe('preferred');
    await expect(
      assign.execute({ callerOrganizationId: broker, organizationId: `org_${'0'.repeat(32)}`, tierKey: 'vip' }),
    ).rejects.toMatchObject({ code: 'organization_not_found' });
    expect(await history(client)).toEqual([]);
    expect(await history(restrictedClient)).toEqual([{ tierKey: 'preferred', assignedBy: restricted }]);
  });
});
