import { DomainError } from '@pfs/contracts';
import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('CreateOrganizationUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker Ltd')).organizationId;
  });

  const create = (override: Partial<Parameters<OrganizationInMemory['createOrganization']['execute']>[0]> = {}) =>
    org.createOrganization.execute({ callerOrganizationId: broker, name: ' Jane Doe ', entityType: 'INDIVIDUAL', country: 'FR', email: ' jane@example.com ', ...override });

  it('makes the caller the creator of a PENDING client, trimmed, with its primary account id chosen now', async () => {
    const created = await create();
    expect(created).toEqual({
      object: 'organization',
      organizationId: expect.stringMatching(/^org_/),
      name: 'Jane Doe',
      entityType: 'INDIVIDUAL',
      country: 'FR',
      email: 'jane@example.com',
      verificationStatus: 'PENDING',
      parentOrganizationId: broker,
      referrerOrganizationId: null,
      primaryAccountId: expect.stringMatching(/^acct_/),
      createdAt: org.clock.now().toISOString(),
    });
    expect((await org.organizations.findById(created.organizationId))?.parentOrganizationId).toBe(broker);
  });

  it('appends organization.created for the ledger, with the account id it must open', async () => {
    const created = await create();
    expect(org.outbox.dataOf('organization.created').at(-1)).toEqual({
      organizationId: created.organizationId,
      primaryAccountId: created.primaryAccountId,
      name: 'Jane Doe',
      parentOrganizationId: broker,
      referrerOrganizationId: null,
      createdAt: org.clock.now().toISOString(),
    });
  });

  it('opens the primary account on the ledger once the organization and its event are stored and the transaction is closed, then answers what the transaction returned', async () => {
    const at: Array<{ stored: boolean; event: boolean; inTransaction: boolean }> = [];
    org.primaryAccounts.onRequest = ({ organizationId }) =>
      at.push({
        stored: org.organizations.rows.has(organizationId),
        event: org.outbox.dataOf('organization.created').some((event) => event.organizationId === organizationId),
        inTransaction: org.unitOfWork.inTransaction,
      });
    const run = jest.spyOn(org.unitOfWork, 'run');

    const created = await create();

    expect(org.primaryAccounts.opened.at(-1)).toEqual({ organizationId: created.organizationId, accountId: created.primaryAccountId });
    expect(at).toEqual([{ stored: true, event: true, inTransaction: false }]);
    expect(run).toHaveBeenCalledTimes(1);
    expect(created).toBe(await run.mock.results[0].value);
  });

  it('fails with the ledger’s error when it cannot open the account, keeping the organization and the event that opens it later', async () => {
    const unavailable = new DomainError('internal_error', 'The ledger service is unavailable; try again shortly.');
    org.primaryAccounts.failWith = unavailable;
    await expect(create()).rejects.toBe(unavailable);
    const request = org.primaryAccounts.requests.at(-1)!;
    expect(request.organizationId).not.toBe(broker);
    expect(org.organizations.rows.has(request.organizationId)).toBe(true);
    expect(org.outbox.dataOf('organization.created').at(-1)).toMatchObject({ organizationId: request.organizationId, primaryAccountId: request.accountId });
    expect(org.primaryAccounts.opened.map((account) => account.organizationId)).toEqual([broker]);
  });

  it.each([
    [{ name: ' ' }, 'name: must not be empty'],
    [{ country: 'de' }, 'country: must be an ISO 3166-1 alpha-2 code in capitals, e.g. DE'],
    [{ email: 'not-an-email' }, 'email: must be an email address'],
  ])('refuses %j with invalid_request and records nothing', async (override, message) => {
    const before = { organizations: org.organizations.rows.size, events: org.outbox.events.length };
    await expect(create(override)).rejects.toMatchObject({ code: 'invalid_request', message });
    expect({ organizations: org.organizations.rows.size, events: org.outbox.events.length }).toEqual(before);
    expect(org.primaryAccounts.requests).toHaveLength(1); // the broker's own, from beforeEach
  });

  it('answers organization_not_found when the caller does not exist', async () => {
    await expect(create({ callerOrganizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
  });
});
