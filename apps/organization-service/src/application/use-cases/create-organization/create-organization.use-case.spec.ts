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

  it.each([
    [{ name: ' ' }, 'name: must not be empty'],
    [{ country: 'de' }, 'country: must be an ISO 3166-1 alpha-2 code in capitals, e.g. DE'],
    [{ email: 'not-an-email' }, 'email: must be an email address'],
  ])('refuses %j with invalid_request and records nothing', async (override, message) => {
    const before = { organizations: org.organizations.rows.size, events: org.outbox.events.length };
    await expect(create(override)).rejects.toMatchObject({ code: 'invalid_request', message });
    expect({ organizations: org.organizations.rows.size, events: org.outbox.events.length }).toEqual(before);
  });

  it('answers organization_not_found when the caller does not exist', async () => {
    await expect(create({ callerOrganizationId: 'org_ffffffffffffffffffffffffffffffff' })).rejects.toMatchObject({ code: 'organization_not_found' });
  });
});
