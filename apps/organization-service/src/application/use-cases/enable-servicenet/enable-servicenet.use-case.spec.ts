import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('EnableServicenetUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let id: string;

  beforeEach(async () => {
    org = organizationInMemory();
    id = (await org.root('Acme')).organizationId;
  });

  it('switches servicenet on now, without a handle', async () => {
    expect(await org.enableServicenet.execute({ organizationId: id })).toEqual({ object: 'servicenet', enabled: true, handle: null, updatedAt: '2026-11-23T08:00:00.000Z' });
    expect(org.memberships.rows.get(id)?.enabled).toBe(true);
  });

  it('is idempotent: a second enable keeps the first time', async () => {
    await org.enableServicenet.execute({ organizationId: id });
    org.clock.advance(60_000);
    expect((await org.enableServicenet.execute({ organizationId: id })).updatedAt).toBe('2026-11-23T08:00:00.000Z');
  });

  it('keeps the handle claimed before a disable', async () => {
    await org.enableServicenet.execute({ organizationId: id });
    await org.claimServicenetHandle.execute({ organizationId: id, handle: 'acme' });
    await org.disableServicenet.execute({ organizationId: id });
    expect(await org.enableServicenet.execute({ organizationId: id })).toMatchObject({ enabled: true, handle: 'acme' });
  });

  it('answers organization_not_found for an unknown organization and records nothing', async () => {
    await expect(org.enableServicenet.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
    expect(org.memberships.rows.size).toBe(0);
  });
});
