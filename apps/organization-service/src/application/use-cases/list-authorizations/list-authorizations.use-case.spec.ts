import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('ListAuthorizationsUseCase (in memory)', () => {
  let org: OrganizationInMemory;

  beforeEach(() => {
    org = organizationInMemory();
  });

  it('lists those given and those received, newest first, page by page, and nobody else’s', async () => {
    const me = (await org.root('Me')).organizationId;
    const [a, b, c] = [(await org.root('A')).organizationId, (await org.root('B')).organizationId, (await org.root('C')).organizationId];
    const grant = async (second: number, grantor: string, grantee: string) => {
      org.clock.set(new Date(Date.UTC(2026, 10, 21, 10, 0, second)));
      return (await org.createAuthorization.execute({ grantorOrganizationId: grantor, granteeOrganizationId: grantee })).authorization;
    };
    const given = await grant(1, me, a);
    const received = await grant(2, b, me);
    const revoked = await grant(3, me, c);
    await org.revokeAuthorization.execute({ organizationId: c, authorizationId: revoked.authorizationId });
    await grant(4, a, b);

    const first = await org.listAuthorizations.execute({ organizationId: me, page: { limit: 2, cursor: null } });
    expect(first.data.map((item) => [item.authorizationId, item.status])).toEqual([
      [revoked.authorizationId, 'REVOKED'],
      [received.authorizationId, 'ACTIVE'],
    ]);
    expect(first.hasMore).toBe(true);
    expect(await org.listAuthorizations.execute({ organizationId: me, page: { limit: 2, cursor: first.nextCursor } })).toEqual({ data: [given], hasMore: false, nextCursor: null });
  });

  it('is empty for an organization without authorizations and refuses another list’s cursor with invalid_request', async () => {
    const lonely = (await org.root('Lonely')).organizationId;
    expect(await org.listAuthorizations.execute({ organizationId: lonely, page: { limit: 25, cursor: null } })).toEqual({ data: [], hasMore: false, nextCursor: null });
    const foreign = org.cursors.encode('organizations', { createdAt: '2026-11-21T10:00:00.000Z', id: lonely });
    await expect(org.listAuthorizations.execute({ organizationId: lonely, page: { limit: 25, cursor: foreign } })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
