import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('ResolveServicenetHandleUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let acme: string;

  beforeEach(async () => {
    org = organizationInMemory();
    acme = (await org.root('Acme Ltd')).organizationId;
    await org.enableServicenet.execute({ organizationId: acme });
    await org.claimServicenetHandle.execute({ organizationId: acme, handle: 'acme' });
  });

  it('answers the holder, its name and whether it is on servicenet, in any case', async () => {
    expect(await org.resolveServicenetHandle.execute({ handle: 'ACME' })).toEqual({ organizationId: acme, organizationName: 'Acme Ltd', handle: 'acme', enabled: true });
    await org.disableServicenet.execute({ organizationId: acme });
    expect(await org.resolveServicenetHandle.execute({ handle: 'acme' })).toMatchObject({ enabled: false });
  });

  it.each([['nobody'], ['x'], ['not a handle']])('answers servicenet_handle_not_found for %j', async (handle) => {
    await expect(org.resolveServicenetHandle.execute({ handle })).rejects.toMatchObject({ code: 'servicenet_handle_not_found' });
  });
});
