import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('GetServicenetUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let id: string;

  beforeEach(async () => {
    org = organizationInMemory();
    id = (await org.root('Acme')).organizationId;
  });

  it('answers the state of an organization never on servicenet (off, no handle)', async () => {
    expect(await org.getServicenet.execute({ organizationId: id })).toEqual({ object: 'servicenet', enabled: false, handle: null, updatedAt: null });
  });

  it('answers the enabled state with the handle', async () => {
    await org.enableServicenet.execute({ organizationId: id });
    await org.claimServicenetHandle.execute({ organizationId: id, handle: 'acme-pay' });
    expect(await org.getServicenet.execute({ organizationId: id })).toEqual({ object: 'servicenet', enabled: true, handle: 'acme-pay', updatedAt: '2026-11-23T08:00:00.000Z' });
  });

  it('answers organization_not_found for an unknown organization', async () => {
    await expect(org.getServicenet.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
  });
});
