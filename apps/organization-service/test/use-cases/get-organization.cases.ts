import { newId } from '@pfs/contracts';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';


describe('GetOrganizationUseCase (real PostgreSQL)', () => {
  let kit: AccessTestKit;
  let broker: string;
  let client: string;
  let stranger: string;

  beforeAll(async () => {
    kit = createAccessTestKit();
    broker = await kit.rootOrganization('Broker');
    stranger = await kit.rootOrganization('Stranger');
    client = await kit.clientOf(broker);
  });

  afterAll(async () => {
    await kit.close();
  });

  it('shows an organization to itself and to its creator', async () => {
    expect(await kit.getOrganization.execute({ callerOrganizationId: broker, organizationId: broker })).toMatchObject({
      organizationId: broker,
      parentOrganizationId: null,
      verificationStatus: 'APPROVED',
    });
    expect(await kit.getOrganization.execute({ callerOrganizationId: broker, organizationId: client })).toMatchObject({
      organizationId: client,
      parentOrganizationId: broker,
    });
    expect(await kit.getOrganization.execute({ callerOrganizationId: client, organizationId: client })).toMatchObject({ organizationId: client });
  });

  it.each([
    ['a stranger asking for a client', () => [stranger, client]],
    ['a client asking for its creator', () => [client, broker]],
    ['anyone asking for an unknown id', () => [broker, newId('organization')]],
  ])('answers organization_not_found to %s', async (_label, pair) => {
    const [callerOrganizationId, organizationId] = pair();
    await expect(kit.getOrganization.execute({ callerOrganizationId, organizationId })).rejects.toMatchObject({
      code: 'organization_not_found',
      message: expect.stringContaining(organizationId),
    });
  });
});
