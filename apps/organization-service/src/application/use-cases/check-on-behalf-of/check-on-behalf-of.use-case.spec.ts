import { newId } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { createOrganizationTestKit, uniqueName, type OrganizationTestKit } from '../../../../test/support/organization-test-kit';
import { UnsignedAuthorizationRepository } from '../../../adapters/persistence/unsigned-authorization.repository';
import { Organization } from '../../../domain/organization';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import { CheckOnBehalfOfUseCase } from './check-on-behalf-of.use-case';

isolateQueues('org-on-behalf-of');

/** LOAs granted in the test: `grantor→grantee`. Stands in until the authorizations table exists. */
class GrantedAuthorizations extends AuthorizationRepository {
  constructor(private readonly grants: Set<string>) {
    super();
  }

  hasActiveAuthorization(grantorOrganizationId: string, granteeOrganizationId: string): Promise<boolean> {
    return Promise.resolve(this.grants.has(`${grantorOrganizationId}→${granteeOrganizationId}`));
  }
}

describe('CheckOnBehalfOfUseCase (real PostgreSQL)', () => {
  let kit: OrganizationTestKit;
  let broker: string;
  let client: string;
  let stranger: string;

  const useCase = (authorizations: AuthorizationRepository = new UnsignedAuthorizationRepository()) =>
    new CheckOnBehalfOfUseCase(kit.organizations, authorizations);

  beforeAll(async () => {
    kit = createOrganizationTestKit();
    broker = (await kit.createRootOrganization.execute({ name: uniqueName('Broker'), approved: true })).organizationId;
    stranger = (await kit.createRootOrganization.execute({ name: uniqueName('Stranger'), approved: true })).organizationId;
    // Client organizations are created by their broker (POST /v1/organizations); stored directly here.
    client = newId('organization');
    const now = new Date();
    await kit.organizations.insert(
      new Organization(client, uniqueName('Client'), 'BUSINESS', 'DE', null, 'PENDING', null, broker, null, newId('account'), now, now),
    );
  });

  afterAll(async () => {
    await kit.close();
  });

  it.each(['creator', 'creator_or_loa'] as const)('lets the creator act for its client (%s)', async (mode) => {
    await expect(useCase().execute({ callerOrganizationId: broker, targetOrganizationId: client, mode })).resolves.toEqual({
      organizationId: client,
    });
  });

  it.each(['creator', 'creator_or_loa'] as const)('refuses an unrelated organization with forbidden (%s)', async (mode) => {
    await expect(useCase().execute({ callerOrganizationId: stranger, targetOrganizationId: client, mode })).rejects.toMatchObject({
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
        await expect(useCase().execute({ callerOrganizationId: caller, targetOrganizationId: target, mode })).rejects.toMatchObject({
          code: 'forbidden',
        });
      }
    }
  });

  it('answers organization_not_found for an organization that does not exist', async () => {
    const missing = newId('organization');
    await expect(useCase().execute({ callerOrganizationId: broker, targetOrganizationId: missing, mode: 'creator' })).rejects.toMatchObject({
      name: 'OrganizationNotFoundError',
      code: 'organization_not_found',
    });
  });

  it('accepts an active LOA grantee where the endpoint allows LOAs, and only there', async () => {
    const withLoa = useCase(new GrantedAuthorizations(new Set([`${client}→${stranger}`])));
    await expect(withLoa.execute({ callerOrganizationId: stranger, targetOrganizationId: client, mode: 'creator_or_loa' })).resolves.toEqual({
      organizationId: client,
    });
    // An LOA never suffices where only the creator may act (spec 4.2: setting a client's tier).
    await expect(withLoa.execute({ callerOrganizationId: stranger, targetOrganizationId: client, mode: 'creator' })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Only the organization that created/),
    });
    // The grant runs one way: the client may not act for the grantee.
    await expect(withLoa.execute({ callerOrganizationId: client, targetOrganizationId: stranger, mode: 'creator_or_loa' })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('finds no active LOA while none can be signed', async () => {
    await expect(new UnsignedAuthorizationRepository().hasActiveAuthorization(client, stranger)).resolves.toBe(false);
  });
});
