import { Big } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork, type PrismaClient } from '@pfs/persistence';
import { testDatabaseUrl } from '@pfs/testing';
import { PrismaQuoteRepository } from '../src/adapters/persistence/prisma-quote.repository';
import { Quote, QUOTE_LIFETIME_MS } from '../src/domain/quote';
import { QuoteChangedError } from '../src/domain/quote-errors';
import { priceSelling } from '../src/domain/quote-pricing';

/* The adapter against the real schema: exact decimals, the status filter as of a time, the due quotes the reconciler asks the ledger about. */
describe('PrismaQuoteRepository (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let repository: PrismaQuoteRepository;
  let unitOfWork: PrismaUnitOfWork;
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
    const host = new PrismaTransactionHost(prisma);
    repository = new PrismaQuoteRepository(host);
    unitOfWork = new PrismaUnitOfWork(host);
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

  it('filters by status as of a time, and finds the due quotes (PENDING past their expiry) only, the longest expired first', async () => {
    const early = quote(at(1000));
    const late = quote(at(120_000));
    const settled = quote(at(0));
    await repository.insert(early);
    await repository.insert(late);
    await repository.insert(settled);
    await repository.update(settled.complete('txn_settled', at(2000)), 'PENDING');
    const now = at(1000 + QUOTE_LIFETIME_MS);
    const ids = async (status?: 'PENDING' | 'EXPIRED') => (await repository.list(organizationId, status ? { status } : {}, now, null, 100)).map((q) => q.id);
    expect(await ids('PENDING')).toEqual([late.id]);
    expect(await ids('EXPIRED')).toEqual(expect.arrayContaining([early.id]));
    expect(await ids('EXPIRED')).not.toContain(late.id);
    expect((await ids())[0]).toBe(late.id);

    const due = (await repository.findDue(now, 100, organizationId)).map((q) => q.id);
    expect(due).toContain(early.id);
    expect(due).not.toContain(late.id);
    expect(due).not.toContain(settled.id);
    expect((await repository.findDue(at(120_000 + QUOTE_LIFETIME_MS), 100, organizationId)).map((q) => q.id).filter((id) => id === early.id || id === late.id)).toEqual([early.id, late.id]);
    expect(await repository.findDue(now, 100, 'org_nobody')).toEqual([]);
    expect((await repository.findDue(now, 1)).length).toBe(1);
  });

  it('update stores the new state only over the expected status', async () => {
    const created = quote(T0);
    await repository.insert(created);
    expect(await repository.update(created.complete('txn_1', at(1000)), 'EXPIRED')).toBe(false);
    expect((await repository.findById(created.id))?.props.status).toBe('PENDING');
    expect(await repository.update(created.complete('txn_1', at(1000)), 'PENDING')).toBe(true);
    expect((await repository.findById(created.id))?.props).toMatchObject({ status: 'COMPLETED', transactionId: 'txn_1', updatedAt: at(1000) });
    expect(await repository.update(created.fail('late', at(2000)), 'PENDING')).toBe(false);
    expect((await repository.findById(created.id))?.props.status).toBe('COMPLETED');
  });

  it('replace, in a write-only unit, stores the new state over the expected status in one statement, and otherwise writes nothing of the unit', async () => {
    const created = quote(T0);
    const bystander = quote(T0);
    await repository.insert(created);
    await unitOfWork.write(() => repository.replace(created.complete('txn_2', at(1000)), 'PENDING'));
    expect((await repository.findById(created.id))?.props).toMatchObject({ status: 'COMPLETED', transactionId: 'txn_2' });
    // Its status is no longer PENDING: the quote written beside it in the same unit is not written either.
    await expect(
      unitOfWork.write(async () => {
        await repository.insert(bystander);
        await repository.replace(created.complete('txn_3', at(2000)), 'PENDING');
      }),
    ).rejects.toBeInstanceOf(QuoteChangedError);
    expect((await repository.findById(created.id))?.props).toMatchObject({ status: 'COMPLETED', transactionId: 'txn_2' });
    expect(await repository.findById(bystander.id)).toBeNull();
  });

  it('afterRollback: what a refusal leaves behind is stored after the rest of its unit of work rolled back', async () => {
    const refused = quote(T0);
    const insertedThenUndone = quote(T0);
    await repository.insert(refused);
    const failure = unitOfWork.run(async () => {
      await repository.insert(insertedThenUndone);
      await repository.findById(refused.id);
      unitOfWork.afterRollback(async () => {
        await repository.update(refused.fail('Account acct_1 is CLOSED', at(1000)), 'PENDING');
      });
      throw new Error('refused');
    });
    await expect(failure).rejects.toThrow('refused');
    expect(await repository.findById(insertedThenUndone.id)).toBeNull();
    expect((await repository.findById(refused.id))?.props).toMatchObject({ status: 'FAILED', failureReason: 'Account acct_1 is CLOSED' });

    // Registered in a unit of work that commits: never run.
    const committed = quote(T0);
    await repository.insert(committed);
    await unitOfWork.run(async () => {
      unitOfWork.afterRollback(async () => {
        await repository.update(committed.fail('never', at(1000)), 'PENDING');
      });
    });
    expect((await repository.findById(committed.id))?.props.status).toBe('PENDING');
  });
});
