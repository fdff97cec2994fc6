import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('GetOrganizationUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;
  let client: string;
  let stranger: string;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker')).organizationId;
    stranger = (await org.root('Stranger')).organizationId;
    client = (await org.createOrganization.execute({ callerOrganizationId: broker, name: 'Client', entityType: 'INDIVIDUAL', country: 'FR', email: 'c@example.com' }))
      .organizationId;
  });

  it('shows an organization to itself and to its creator', async () => {
    expect(await org.getOrganization.execute({ callerOrganizationId: broker, organizationId: broker })).toMatchObject({
      organizationId: broker,
      parentOrganizationId: null,
      verificationStatus: 'APPROVED',
    });
    expect(await org.getOrganization.execute({ callerOrganizationId: broker, organizationId: client })).toMatchObject({ organizationId: client, parentOrganizationId: broker });
    expect(await org.getOrganization.execute({ callerOrganizationId: client, organizationId: client })).toMatchObject({ organizationId: client });
  });

  it('answers organization_not_found to a stranger, to a client asking for its creator, and for an unknown id', async () => {
    for (const [callerOrganizationId, organizationId] of [[stranger, client], [client, broker], [broker, 'org_ffffffffffffffffffffffffffffffff']]) {
      await expect(org.getOrganization.execute({ callerOrganizationId, organizationId })).rejects.toMatchObject({
        code: 'organization_not_found',
        message: expect.stringContaining(organizationId),
      });
    }
  });
});
