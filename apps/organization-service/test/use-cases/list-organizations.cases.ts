import { createAccessTestKit, type AccessTestKit } from '../support/access-test-kit';
import { FixedClock } from '../support/organization-test-kit';


describe('ListOrganizationsUseCase (real PostgreSQL)', () => {
  const clock = new FixedClock(new Date('2026-11-21T10:00:00.000Z'));
  let kit: AccessTestKit;

  beforeAll(() => {
    kit = createAccessTestKit({ clock });
  });

  afterAll(async () => {
    await kit.close();
  });

  it('pages through the caller’s clients newest first, exactly once each, and nobody else’s', async () => {
    const broker = await kit.rootOrganization('Broker');
    const other = await kit.rootOrganization('Other');
    const clients: string[] = [];
    for (let index = 0; index < 5; index++) {
      // Two share a creation time, so the id breaks the tie.
      clock.time = new Date(Date.UTC(2026, 10, 21, 10, 0, Math.min(index, 3)));
      clients.push(await kit.clientOf(broker));
    }
    await kit.clientOf(other);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await kit.listClients.execute({ callerOrganizationId: broker, page: { limit: 2, cursor } });
      expect(page.data.every((organization) => organization.parentOrganizationId === broker)).toBe(true);
      seen.push(...page.data.map((organization) => organization.organizationId));
      cursor = page.nextCursor;
      expect(page.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor);

    expect(pages).toBe(3);
    const [a, b, c, d, e] = clients;
    const tied = [d, e].sort().reverse();
    expect(seen).toEqual([...tied, c, b, a]);
  });

  it('is empty for an organization without clients and refuses a cursor of another list', async () => {
    const lonely = await kit.rootOrganization('Lonely');
    expect(await kit.listClients.execute({ callerOrganizationId: lonely, page: { limit: 25, cursor: null } })).toEqual({
      data: [],
      hasMore: false,
      nextCursor: null,
    });
    const foreign = kit.cursors.encode('accounts', { createdAt: '2026-11-21T10:00:00.000Z', id: lonely });
    await expect(kit.listClients.execute({ callerOrganizationId: lonely, page: { limit: 25, cursor: foreign } })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});
