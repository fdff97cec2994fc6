import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock } from '../support/organization-test-kit';


describe('ListAuthorizationsUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit({ clock });
  });

  afterAll(async () => {
    await kit.close();
  });

  it('lists those given and those received, newest first, page by page, and nobody else’s', async () => {
    const me = await kit.rootOrganization('Me');
    const [a, b, c] = [await kit.rootOrganization('A'), await kit.rootOrganization('B'), await kit.rootOrganization('C')];
    const grant = async (second: number, grantor: string, grantee: string) => {
      clock.time = new Date(Date.UTC(2026, 10, 21, 10, 0, second));
      return (await kit.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee })).authorization;
    };
    const given = await grant(1, me, a);
    const received = await grant(2, b, me);
    const revoked = await grant(3, me, c);
    await kit.revokeAuthorization.execute({ organizationId: c, authorizationId: revoked.authorizationId });
    await grant(4, a, b); // not involving me

    const first = await kit.listAuthorizations.execute({ organizationId: me, page: { limit: 2, cursor: null } });
    expect(first.data.map((item) => [item.authorizationId, item.status])).toEqual([
      [revoked.authorizationId, 'REVOKED'],
      [received.authorizationId, 'ACTIVE'],
    ]);
    expect(first.hasMore).toBe(true);
    const second = await kit.listAuthorizations.execute({ organizationId: me, page: { limit: 2, cursor: first.nextCursor } });
    expect(second).toEqual({ data: [given], hasMore: false, nextCursor: null });

    const foreign = kit.cursors.encode('organizations', { createdAt: '2026-11-21T10:00:00.000Z', id: me });
    await expect(kit.listAuthorizations.execute({ organizationId: me, page: { limit: 2, cursor: foreign } })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});
