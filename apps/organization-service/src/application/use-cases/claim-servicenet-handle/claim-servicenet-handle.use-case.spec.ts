import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('ClaimServicenetHandleUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let acme: string;
  let globex: string;

  beforeEach(async () => {
    org = organizationInMemory();
    acme = (await org.root('Acme')).organizationId;
    globex = (await org.root('Globex')).organizationId;
    await org.enableServicenet.execute({ organizationId: acme });
    await org.enableServicenet.execute({ organizationId: globex });
  });

  it('stores the handle lower-cased', async () => {
    org.clock.advance(1000);
    expect(await org.claimServicenetHandle.execute({ organizationId: acme, handle: 'Acme_Pay-1' })).toEqual({
      object: 'servicenet',
      enabled: true,
      handle: 'acme_pay-1',
      updatedAt: '2026-11-23T08:00:01.000Z',
    });
  });

  it('refuses a handle another organization holds, in any case, with servicenet_handle_taken', async () => {
    await org.claimServicenetHandle.execute({ organizationId: acme, handle: 'acme' });
    await expect(org.claimServicenetHandle.execute({ organizationId: globex, handle: 'ACME' })).rejects.toMatchObject({ code: 'servicenet_handle_taken' });
    expect(org.memberships.rows.get(globex)?.handle).toBeNull();
  });

  it('is a no-op for the handle one holds, and a change releases the old handle', async () => {
    await org.claimServicenetHandle.execute({ organizationId: acme, handle: 'acme' });
    org.clock.advance(1000);
    expect((await org.claimServicenetHandle.execute({ organizationId: acme, handle: 'ACME' })).updatedAt).toBe('2026-11-23T08:00:00.000Z');
    await org.claimServicenetHandle.execute({ organizationId: acme, handle: 'acme-two' });
    expect(await org.claimServicenetHandle.execute({ organizationId: globex, handle: 'acme' })).toMatchObject({ handle: 'acme' });
  });

  it.each([['ab'], ['a'.repeat(33)], ['acme pay'], ['acmé'], ['acme.pay'], ['']])('refuses %j with invalid_request naming handle', async (handle) => {
    await expect(org.claimServicenetHandle.execute({ organizationId: acme, handle })).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^handle: /) });
  });

  it('refuses while servicenet is off (servicenet_not_enabled)', async () => {
    await org.disableServicenet.execute({ organizationId: acme });
    await expect(org.claimServicenetHandle.execute({ organizationId: acme, handle: 'acme' })).rejects.toMatchObject({ code: 'servicenet_not_enabled' });
    const never = (await org.root('Never')).organizationId;
    await expect(org.claimServicenetHandle.execute({ organizationId: never, handle: 'never' })).rejects.toMatchObject({ code: 'servicenet_not_enabled' });
  });

  it('answers organization_not_found for an unknown organization', async () => {
    await expect(org.claimServicenetHandle.execute({ organizationId: 'org_ffffffffffffffffffffffffffffffff', handle: 'ghost' })).rejects.toMatchObject({ code: 'organization_not_found' });
  });
});
