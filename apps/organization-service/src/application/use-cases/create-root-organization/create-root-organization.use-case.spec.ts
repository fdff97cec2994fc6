import { ApiKeyCollisionError } from '../../../domain/organization-errors';
import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('CreateRootOrganizationUseCase (in memory)', () => {
  let org: OrganizationInMemory;

  beforeEach(() => {
    org = organizationInMemory();
  });

  it('stores an APPROVED organization without parent and its first key, hashed, with a hint', async () => {
    const created = await org.createRootOrganization.execute({ name: ' Acme ', approved: true });
    expect(created).toEqual({
      organizationId: expect.stringMatching(/^org_/),
      accountId: expect.stringMatching(/^acct_/),
      verificationStatus: 'APPROVED',
      keyId: expect.stringMatching(/^key_/),
      apiKey: expect.stringMatching(/^sk_test_[0-9a-f]{64}$/),
    });
    expect(await org.organizations.findById(created.organizationId)).toMatchObject({
      name: 'Acme',
      verificationStatus: 'APPROVED',
      primaryAccountId: created.accountId,
      parentOrganizationId: null,
      referrerOrganizationId: null,
      createdAt: org.clock.now(),
    });
    const key = org.apiKeys.rows.get(created.keyId);
    expect(key).toMatchObject({ organizationId: created.organizationId, keyHash: org.hasher.hash(created.apiKey), hint: `sk_test_…${created.apiKey.slice(-4)}`, revokedAt: null });
    expect(JSON.stringify(key)).not.toContain(created.apiKey.slice(8));
  });

  it('appends organization.created with the account the ledger must open', async () => {
    const created = await org.createRootOrganization.execute({ name: 'Acme', approved: true });
    expect(org.outbox.events.map((event) => event.type)).toEqual(['organization.created']);
    expect(org.outbox.dataOf('organization.created')).toEqual([
      { organizationId: created.organizationId, primaryAccountId: created.accountId, name: 'Acme', parentOrganizationId: null, referrerOrganizationId: null, createdAt: org.clock.now().toISOString() },
    ]);
  });

  it('leaves an organization the operator did not approve PENDING', async () => {
    const created = await org.createRootOrganization.execute({ name: 'Pending', approved: false });
    expect(created.verificationStatus).toBe('PENDING');
    expect((await org.organizations.findById(created.organizationId))?.verificationStatus).toBe('PENDING');
  });

  it('refuses an empty name with invalid_request and records nothing', async () => {
    await expect(org.createRootOrganization.execute({ name: '  ', approved: true })).rejects.toMatchObject({ code: 'invalid_request' });
    expect({ organizations: org.organizations.rows.size, keys: org.apiKeys.rows.size, events: org.outbox.events.length }).toEqual({ organizations: 0, keys: 0, events: 0 });
  });

  it('lets a key collision through as ApiKeyCollisionError (internal_error), appending no event', async () => {
    jest.spyOn(org.apiKeys, 'insert').mockRejectedValueOnce(new ApiKeyCollisionError());
    await expect(org.createRootOrganization.execute({ name: 'Second', approved: true })).rejects.toMatchObject({ name: 'ApiKeyCollisionError', code: 'internal_error' });
    expect(org.outbox.events).toEqual([]);
  });
});
