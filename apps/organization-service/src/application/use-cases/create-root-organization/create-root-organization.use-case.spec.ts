import { DomainError } from '@pfs/contracts';
import { ApiKeyCollisionError } from '../../../domain/organization-errors';
import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';
import { PrimaryAccountNotOpenedError } from './create-root-organization.command';

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

  it('appends organization.created with the account the ledger must open, and its standing', async () => {
    const created = await org.createRootOrganization.execute({ name: 'Acme', approved: true });
    expect(org.outbox.events.map((event) => event.type)).toEqual(['organization.created', 'organization.standing.updated']);
    expect(org.outbox.dataOf('organization.standing.updated')).toEqual([
      {
        organizationId: created.organizationId,
        verificationStatus: 'APPROVED',
        parentOrganizationId: null,
        parentHoldsActiveLoa: false,
        referrerOrganizationId: null,
        updatedAt: org.clock.now().toISOString(),
      },
    ]);
    expect(org.outbox.dataOf('organization.created')).toEqual([
      { organizationId: created.organizationId, primaryAccountId: created.accountId, name: 'Acme', parentOrganizationId: null, referrerOrganizationId: null, createdAt: org.clock.now().toISOString() },
    ]);
  });

  it('opens the primary account on the ledger after the organization, its key and its event have committed, then answers what the transaction returned', async () => {
    const at: Array<{ stored: boolean; keys: number; inTransaction: boolean }> = [];
    org.primaryAccounts.onRequest = ({ organizationId }) =>
      at.push({ stored: org.organizations.rows.has(organizationId), keys: org.apiKeys.rows.size, inTransaction: org.unitOfWork.inTransaction });
    const run = jest.spyOn(org.unitOfWork, 'run');

    const created = await org.createRootOrganization.execute({ name: 'Acme', approved: true });

    expect(org.primaryAccounts.opened).toEqual([{ organizationId: created.organizationId, accountId: created.accountId }]);
    expect(at).toEqual([{ stored: true, keys: 1, inTransaction: false }]);
    expect(created).toBe(await run.mock.results[0].value);
  });

  it('when the ledger cannot open the account, fails with PrimaryAccountNotOpenedError carrying what was stored, key included (shown only once)', async () => {
    org.primaryAccounts.failWith = new DomainError('internal_error', 'The ledger service is unavailable; try again shortly.');
    const error = await org.createRootOrganization.execute({ name: 'Acme', approved: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrimaryAccountNotOpenedError);
    const { created } = error as PrimaryAccountNotOpenedError;
    expect((error as Error).message).toBe(`the primary account ${created.accountId} of ${created.organizationId} is not open yet: The ledger service is unavailable; try again shortly.`);
    expect(await org.authenticateApiKey.execute({ keyHash: org.hasher.hash(created.apiKey) })).toMatchObject({ organizationId: created.organizationId });
    expect(org.outbox.dataOf('organization.created')).toEqual([expect.objectContaining({ organizationId: created.organizationId, primaryAccountId: created.accountId })]);
    expect(org.primaryAccounts.opened).toEqual([]);
  });

  it('leaves an organization the operator did not approve PENDING', async () => {
    const created = await org.createRootOrganization.execute({ name: 'Pending', approved: false });
    expect(created.verificationStatus).toBe('PENDING');
    expect((await org.organizations.findById(created.organizationId))?.verificationStatus).toBe('PENDING');
  });

  it('refuses an empty name with invalid_request and records nothing', async () => {
    await expect(org.createRootOrganization.execute({ name: '  ', approved: true })).rejects.toMatchObject({ code: 'invalid_request' });
    expect({ organizations: org.organizations.rows.size, keys: org.apiKeys.rows.size, events: org.outbox.events.length }).toEqual({ organizations: 0, keys: 0, events: 0 });
    expect(org.primaryAccounts.requests).toEqual([]);
  });

  it('lets a key collision through as ApiKeyCollisionError (internal_error), appending no event', async () => {
    jest.spyOn(org.apiKeys, 'insert').mockRejectedValueOnce(new ApiKeyCollisionError());
    await expect(org.createRootOrganization.execute({ name: 'Second', approved: true })).rejects.toMatchObject({ name: 'ApiKeyCollisionError', code: 'internal_error' });
    expect(org.outbox.events).toEqual([]);
  });
});
