import { organizationInMemory, type OrganizationInMemory } from '../../../../test/support/in-memory/organization-in-memory.kit';

describe('ListOrganizationsUseCase (in memory)', () => {
  let org: OrganizationInMemory;
  let broker: string;

  const clientOf = async (parent: string) =>
    (await org.createOrganization.execute({ callerOrganizationId: parent, name: 'Client', entityType: 'INDIVIDUAL', country: 'FR', email: 'c@example.com' })).organizationId;

  beforeEach(async () => {
    org = organizationInMemory();
    broker = (await org.root('Broker')).organizationId;
  });

  it('pages through the caller’s clients newest first (id breaking ties), exactly once each, and nobody else’s', async () => {
    const other = (await org.root('Other')).organizationId;
    const clients: string[] = [];
    for (let index = 0; index < 5; index++) {
      org.clock.set(new Date(Date.UTC(2026, 10, 21, 10, 0, Math.min(index, 3))));
      clients.push(await clientOf(broker));
    }
    await clientOf(other);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await org.listOrganizations.execute({ callerOrganizationId: broker, page: { limit: 2, cursor } });
      expect(page.data.every((organization) => organization.parentOrganizationId === broker)).toBe(true);
      seen.push(...page.data.map((organization) => organization.organizationId));
      cursor = page.nextCursor;
      expect(page.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor);
    const [a, b, c, d, e] = clients;
    expect(pages).toBe(3);
    expect(seen).toEqual([...[d, e].sort().reverse(), c, b, a]);
  });

  it('is empty for an organization without clients and refuses another list’s cursor with invalid_request', async () => {
    expect(await org.listOrganizations.execute({ callerOrganizationId: broker, page: { limit: 25, cursor: null } })).toEqual({ data: [], hasMore: false, nextCursor: null });
    const foreign = org.cursors.encode('accounts', { createdAt: '2026-11-21T10:00:00.000Z', id: broker });
    await expect(org.listOrganizations.execute({ callerOrganizationId: broker, page: { limit: 25, cursor: foreign } })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
