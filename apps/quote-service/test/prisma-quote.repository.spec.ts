import { Big } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, type PrismaClient } from '@pfs/persistence';
import { testDatabaseUrl } from '@pfs/testing';
import { PrismaQuoteRepository } from '../src/adapters/persistence/prisma-quote.repository';
import { Quote, QUOTE_LIFETIME_MS } from '../src/domain/quote';
import { priceSelling } from '../src/domain/quote-pricing';

/* The adapter against the real schema: exact decimals, the status filter as of a time, the sweeper's update. */
describe('PrismaQuoteRepository (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let repository: PrismaQuoteRepository;
  const run = Date.now().toString(16);
  const organizationId = `org_quote_repo_${run}`;
  const T0 = new Date('2026-11-23T08:00:00.000Z');
  const at = (ms: number) => new Date(T0.getTime() + ms);
  let sequence = 0;

  const quote = (now: Date) => {
    sequence += 1;
    // ETH (18 decimals) → BTC (8): the amounts use the full numeric(38, 18).
    const terms = priceSelling(new Big('1.123456789012345678'), { midRate: new Big('0.036'), spreadBps: 30, fromScale: 18, toScale: 8 });
    return Quote.create({ id: `quote_repo_${run}_${sequence}`, organizationId, accountId: 'acct_1', fromAsset: 'ETH', toAsset: 'BTC', terms, pricing: { spreadBps: 30, referrerShareBps: 30, feeScale: 18 }, now });
  };

  beforeAll(() => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'quote-repository-spec' });
    repository = new PrismaQuoteRepository(new PrismaTransactionHost(prisma));
  });

  afterAll(async () => {
    await prisma.quote.deleteMany({ where: { organizationId } });
    await prisma.$disconnect();
  });

  it('stores and reads back the exact amounts, fee, rate and pricing', async () => {
    const created = quote(T0);
    await repository.insert(created);
    const read = await repository.findById(created.id);
    expect(read?.props).toEqual(created.props);
    expect(read?.props.terms.fee.toFixed()).toBe('0.003370370367037038');
  });

  it('filters by status as of a time, and the sweeper stores EXPIRED on what is due only', async () => {
    const early = quote(at(1000));
    const late = quote(at(120_000));
    await repository.insert(early);
    await repository.insert(late);
    const now = at(1000 + QUOTE_LIFETIME_MS);
    const ids = async (status?: 'PENDING' | 'EXPIRED') => (await repository.list(organizationId, status ? { status } : {}, now, null, 100)).map((q) => q.id);
    expect(await ids('PENDING')).toEqual([late.id]);
    expect(await ids('EXPIRED')).toEqual(expect.arrayContaining([early.id]));
    expect(await ids('EXPIRED')).not.toContain(late.id);
    expect((await ids())[0]).toBe(late.id);

    expect(await repository.expireDue(now)).toBeGreaterThanOrEqual(1);
    expect((await repository.findById(early.id))?.props.status).toBe('EXPIRED');
    expect((await repository.findById(late.id))?.props.status).toBe('PENDING');
  });
});
