import { newId } from '@pfs/contracts';
import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';


describe('GetAuthorizationUseCase (real PostgreSQL)', () => {
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit();
  });

  afterAll(async () => {
    await kit.close();
  });

  it('shows the authorization to either party and to nobody else', async () => {
    const grantor = await kit.rootOrganization('Grantor');
    const grantee = await kit.rootOrganization('Grantee');
    const stranger = await kit.rootOrganization('Stranger');
    const { authorization } = await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee });

    for (const party of [grantor, grantee]) {
      expect(await kit.getAuthorization.execute({ organizationId: party, authorizationId: authorization.authorizationId })).toEqual(authorization);
    }
    for (const authorizationId of [authorization.authorizationId, newId('authorization')]) {
      await expect(kit.getAuthorization.execute({ organizationId: stranger, authorizationId })).rejects.toMatchObject({
        code: 'authorization_not_found',
        message: expect.stringContaining(authorizationId),
      });
    }
  });
});
