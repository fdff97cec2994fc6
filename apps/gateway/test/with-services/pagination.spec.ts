import { newId } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError } from '../support/http-client';
import { startServices, type CreatedOrganization, type ServiceProcesses } from '../support/service-processes';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const queuePrefix = isolateQueues('gw-pagination');

interface AccountPage {
  object: string;
  data: Array<{ accountId: string; createdAt: string }>;
  hasMore: boolean;
  nextCursor: string | null;
}

/*
 * Keyset pagination end to end: GET /v1/accounts through a gateway in this process, the
 * organization service and the ledger as processes, accounts written straight into the
 * ledger's table before and during the walk.
 */
describe('pagination of GET /v1/accounts', () => {
  let services: ServiceProcesses;
  let gateway: TestGateway;
  let prisma: PrismaClient;

  beforeAll(async () => {
    services = await startServices(queuePrefix, ['organization-service', 'ledger-service']);
    gateway = await startTestGateway();
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-pagination-test' });
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await gateway?.close();
    await services?.stop();
  }, 60000);

  /** An organization whose primary account the ledger has opened. */
  const organizationWithPrimaryAccount = async (label: string): Promise<CreatedOrganization> => {
    const org = await services.createOrganization(label);
    await eventually(async () => ((await gateway.request(`/v1/accounts/${org.accountId}`, { key: org.apiKey })).status === 200 ? true : undefined), 15000, 100);
    return org;
  };

  const seed = (organizationId: string, rows: Array<{ id: string; createdAt: Date }>) =>
    prisma.ledgerAccount.createMany({
      data: rows.map((row, index) => ({
        id: row.id,
        organizationId,
        name: `Seeded ${index}`,
        isPrimary: false,
        status: 'ACTIVE',
        createdAt: row.createdAt,
        updatedAt: row.createdAt,
      })),
    });

  const page = async (org: CreatedOrganization, query: string) => {
    const answer = await gateway.request(`/v1/accounts${query}`, { key: org.apiKey });
    expect(answer.status).toBe(200);
    const body = answer.json<AccountPage>();
    expect(answer.headers.get('x-page-size')).toBe(String(body.data.length));
    expect(answer.headers.get('x-next-cursor')).toBe(body.nextCursor ?? null);
    expect(body.object).toBe('list');
    expect(body.hasMore).toBe(body.nextCursor !== null);
    return body;
  };

  it('walks a 260-item list exactly once, newest first, while accounts are being inserted', async () => {
    const org = await organizationWithPrimaryAccount('pagination walk');
    // 259 older accounts; three at a time share a timestamp, so ties are ordered by id.
    const base = Date.now() - 24 * 3600 * 1000;
    const seeded = Array.from({ length: 259 }, (_, index) => ({ id: newId('account'), createdAt: new Date(base + Math.floor(index / 3) * 1000) }));
    await seed(org.organizationId, seeded);
    const primary = await prisma.ledgerAccount.findUniqueOrThrow({ where: { id: org.accountId } });
    const atStart = [...seeded, { id: primary.id, createdAt: primary.createdAt }];
    expect(atStart).toHaveLength(260);
    const expectedOrder = [...atStart]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((row) => row.id);

    // Newer accounts keep arriving, one batch after another, until the walk ends.
    const insertedDuringWalk: string[] = [];
    let walking = true;
    const writer = (async () => {
      while (walking) {
        const batch = Array.from({ length: 3 }, () => ({ id: newId('account'), createdAt: new Date() }));
        await seed(org.organizationId, batch);
        insertedDuringWalk.push(...batch.map((row) => row.id));
        // Gently: a few batches per page are enough, and a tight loop only loads the machine.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const walked: string[] = [];
    let pages = 0;
    try {
      let cursor: string | null = null;
      do {
        const body: AccountPage = await page(org, cursor ? `?cursor=${encodeURIComponent(cursor)}` : '');
        expect(body.data.length).toBeLessThanOrEqual(25);
        walked.push(...body.data.map((account) => account.accountId));
        cursor = body.nextCursor;
        pages++;
      } while (cursor);
    } finally {
      walking = false;
      await writer;
    }

    expect(insertedDuringWalk.length).toBeGreaterThan(0);
    expect(new Set(walked).size).toBe(walked.length);
    const startSet = new Set(expectedOrder);
    expect(walked.filter((id) => startSet.has(id))).toEqual(expectedOrder);
    // Anything else on the pages is an account that arrived during the walk, newer than all.
    const arrived = new Set(insertedDuringWalk);
    const extra = walked.filter((id) => !startSet.has(id));
    expect(extra.every((id) => arrived.has(id))).toBe(true);
    expect(walked.slice(0, extra.length)).toEqual(extra);
    expect(pages).toBeGreaterThanOrEqual(11);
  }, 90000);

  it('pages with an explicit limit, and the last page has no X-Next-Cursor', async () => {
    const org = await organizationWithPrimaryAccount('pagination limit');
    const base = Date.now() - 3600 * 1000;
    await seed(
      org.organizationId,
      Array.from({ length: 4 }, (_, index) => ({ id: newId('account'), createdAt: new Date(base + index) })),
    );
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const body: AccountPage = await page(org, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      sizes.push(body.data.length);
      cursor = body.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([2, 2, 1]);
    expect((await page(org, '?limit=100')).data).toHaveLength(5);
    expect((await page(org, '')).data).toHaveLength(5);
  });

  it('refuses an altered cursor and a limit outside 1–100 with 400 invalid_request naming the parameter', async () => {
    const org = await organizationWithPrimaryAccount('pagination errors');
    await seed(org.organizationId, [{ id: newId('account'), createdAt: new Date(Date.now() - 1000) }]);
    const first = await page(org, '?limit=1');
    expect(first.nextCursor).not.toBeNull();
    const cursor = first.nextCursor ?? '';
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(expectError(await gateway.request(`/v1/accounts?cursor=${encodeURIComponent(tampered)}`, { key: org.apiKey }), 400, 'invalid_request').message).toMatch(
      /^cursor: /,
    );
    for (const limit of ['0', '101']) {
      expect(expectError(await gateway.request(`/v1/accounts?limit=${limit}`, { key: org.apiKey }), 400, 'invalid_request').message).toBe(
        'limit: must be an integer between 1 and 100',
      );
    }
  });
});
