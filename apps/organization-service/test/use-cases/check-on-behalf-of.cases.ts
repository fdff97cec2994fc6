import { newId } from '@pfs/contracts';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';


describe('CheckOnBehalfOfUseCase (real PostgreSQL)', () => {
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

  it.each(['creator', 'creator_or_loa'] as const)('lets the creator act for its client (%s)', async (mode) => {
    await expect(kit.checkOnBehalfOf.execute({ callerOrganizationId: broker, targetOrganizationId: client, mode })).resolves.toEqual({
      organizationId: client,
    });
  });

  it.each(['creator', 'creator_or_loa'] as const)('refuses an unrelated organization with forbidden (%s)', async (mode) => {
    await expect(kit.checkOnBehalfOf.execute({ callerOrganizationId: stranger, targetOrganizationId: client, mode })).rejects.toMatchObject({
      name: 'OnBehalfOfForbiddenError',
      code: 'forbidden',
      message: expect.stringContaining(client),
    });
  });

  it('refuses a client acting for its creator, and an organization acting for itself', async () => {
    for (const [caller, target] of [
      [client, broker],
      [broker, broker],
    ] as const) {
      for (const mode of ['creator', 'creator_or_loa'] as const) {
        await expect(kit.checkOnBehalfOf.execute({ callerOrganizationId: caller, targetOrganizationId: target, mode })).rejects.toMatchObject({
          code: 'forbidden',
        });
      }
    }
  });

  it('answers organization_not_found for an organization that does not exist', async () => {
    const missing = newId('organization');
    await expect(
      kit.checkOnBehalfOf.execute({ callerOrganizationId: broker, targetOrganizationId: missing, mode: 'creator' }),
    ).rejects.toMatchObject({ name: 'OrganizationNotFoundError', code: 'organization_not_found' });
  });

  it('accepts an ACTIVE LOA grantee where the endpoint allows LOAs, only there, and no longer once revoked', async () => {
    const grantor = await kit.clientOf(broker, 'Grantor');
    const grantee = await kit.rootOrganization('Grantee');
    const { authorization } = await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });

    await expect(kit.checkOnBehalfOf.execute({ callerOrganizationId: grantee, targetOrganizationId: grantor, mode: 'creator_or_loa' })).resolves.toEqual({
      organizationId: grantor,
    });
    // An LOA never suffices where only the creator may act (spec 4.2: setting a client's tier).
    await expect(kit.checkOnBehalfOf.execute({ callerOrganizationId: grantee, targetOrganizationId: grantor, mode: 'creator' })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Only the organization that created/),
    });
    // The grant runs one way: the grantor may not act for the grantee.
    await expect(kit.checkOnBehalfOf.execute({ callerOrganizationId: grantor, targetOrganizationId: grantee, mode: 'creator_or_loa' })).rejects.toMatchObject({
      code: 'forbidden',
    });

    await kit.revokeAuthorization.execute({ organizationId: grantor, authorizationId: authorization.authorizationId });
    await expect(kit.checkOnBehalfOf.execute({ callerOrganizationId: grantee, targetOrganizationId: grantor, mode: 'creator_or_loa' })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
