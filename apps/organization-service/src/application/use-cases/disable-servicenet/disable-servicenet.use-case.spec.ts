import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('DisableServicenetUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let id: string;

  beforeEach(async () => {
    org = organizationInMemory();
    id = (await org.root('Acme')).organizationId;
  });

  it('switches servicenet off, keeping the handle reserved for the organization', async () => {
    await org.enableServicenet.execute({ organizationId: id });
    await org.claimServicenetHandle.execute({ organizationId: id, handle: 'Acme' });
    org.clock.set('2026-11-24T08:00:00.000Z');
    expect(await org.disableServicenet.execute({ organizationId: id })).toEqual({ object: 'servicenet', enabled: false, handle: 'acme', updatedAt: '2026-11-24T08:00:00.000Z' });
    const other = (await org.root('Other')).organizationId;
    await org.enableServicenet.execute({ organizationId: other });
    await expect(org.claimServicenetHandle.execute({ organizationId: other, handle: 'ACME' })).rejects.toMatchObject({ code: 'servicenet_handle_taken' });
  });

  it('is a no-op for an organization never on servicenet', async () => {
    expect(await org.disableServicenet.execute({ organizationId: id })).toEqual({ object: 'servicenet', enabled: false, handle: null, updatedAt: null });
    expect(org.memberships.rows.size).toBe(0);
  });

  it('answers organization_not_found for an unknown organization', async () => {
    await expect(org.disableServicenet.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
  });
});
