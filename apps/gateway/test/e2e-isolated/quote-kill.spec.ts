import { randomUUID } from 'node:crypto';
import { Big, type QuoteView, type TransactionView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, ledgerInvariantViolations, testDatabaseUrl } from '@pfs/testing';
import { send, type Answer, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-quote-kill');

/*
 * Kill test, the gateway and the services a quote needs as their own processes: the quote service is killed (-9)
 * after the ledger committed a quote's trade and before the quote service committed the quote
 * COMPLETED. Whether the client executes again (before or after `expiresAt`) or never does
 * (then, past `expiresAt`, the quote service's reconciler asks the ledger), there must be exactly
 * one trade, the quote COMPLETED with it, the balances moved once, and the books balanced.
 *
 * The window is made certain rather than hit by chance. The quote service reads the quote, has
 * the ledger post the trade, then records it in one statement that updates the quote's row (with
 * the command's result). The test holds a SHARE lock on quote.quotes, which lets the service
 * read the row but not update it (ROW EXCLUSIVE): the ledger's trade commits, the service's
 * statement waits on the test, and the kill comes while it waits. A statement already sent
 * would still commit once the lock is gone, as if the service had died just after it; so the
 * test ends the dead service's waiting statement too, as if the service had died just before
 * sending it, and the quote stays uncommitted.
 */
describe('kill -9 the quote service between the ledger’s posting and its own commit (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let client: CreatedOrganization;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const post = (path: string, body: Record<string, unknown> | undefined, idempotencyKey: string) =>
    call(path, { method: 'POST', key: client.apiKey, ...(body ? { body } : {}), headers: { 'Idempotency-Key': idempotencyKey } });
  const balance = async (asset: string) =>
    new Big((await prisma.ledgerBalance.findUnique({ where: { accountId_asset: { accountId: client.accountId, asset } } }))?.amount.toFixed() ?? '0');
  const trades = (quoteId: string) => prisma.ledgerTransaction.findMany({ where: { quoteId }, select: { id: true, type: true } });

  beforeAll(async () => {
    // A short command timeout: the execute caught by the kill is answered 503 soon. The
    // reconciler's sweeper is off unless a test starts the service with it on: until then only
    // the client's requests settle a quote.
    e2e = await startE2eStack(queuePrefix, { COMMAND_TIMEOUT_MS: '3000', QUOTE_SWEEP_INTERVAL_MS: '9999999' }, { apps: ['organization-service', 'ledger-service', 'quote-service'] });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 3, applicationName: 'gateway-e2e-quote-kill' });
    client = await e2e.createOrganization('e2e quote kill');
    await eventually(async () => (await prisma.ledgerAccount.findUnique({ where: { id: client.accountId }, select: { id: true } }))?.id, 15000);
    expect((await post('/v1/funding-methods', { asset: 'USDC' }, randomUUID())).status).toBe(200);
    const funded = await post('/v1/transactions/faucet', { accountId: client.accountId, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' }, randomUUID());
    expect(funded.status).toBe(200);
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  /**
   * Executes the quote with `key` while holding the SHARE lock; once the ledger has the trade
   * and the service's UPDATE recording it on the quote waits on the lock, kills the service and
   * (unless `statementSent`) ends its waiting statement, then lets go.
   * Answers the execute's response (the gateway's 503: the service died under it).
   */
  async function executeAndKillBeforeCommit(quoteId: string, key: string, options: { statementSent?: boolean } = {}): Promise<Answer> {
    let answer: Promise<Answer> | undefined;
    await prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`LOCK TABLE "quote"."quotes" IN SHARE MODE`;
        const [{ pid }] = await tx.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
        answer = post(`/v1/quotes/${quoteId}/execute`, undefined, key);
        // The ledger committed the trade…
        await eventually(async () => ((await trades(quoteId)).some((row) => row.type === 'TRADE') ? true : undefined), 20000, 50);
        // …and the quote service's UPDATE of the quote is blocked by this transaction: not committed.
        await eventually(async () => {
          const [{ waiting }] = await prisma.$queryRaw<Array<{ waiting: bigint }>>`
            SELECT count(*) AS waiting FROM pg_stat_activity
            WHERE ${pid}::int = ANY (pg_blocking_pids(pid)) AND query ILIKE '%UPDATE "quote"."quotes"%'`;
          return waiting > 0n ? true : undefined;
        }, 20000, 50);
        await e2e.stack.stopApp('quote-service', 'SIGKILL');
        if (options.statementSent) return;
        await prisma.$queryRaw`
          SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE ${pid}::int = ANY (pg_blocking_pids(pid)) AND query ILIKE '%UPDATE "quote"."quotes"%'`;
        await eventually(async () => {
          const [{ waiting }] = await prisma.$queryRaw<Array<{ waiting: bigint }>>`
            SELECT count(*) AS waiting FROM pg_stat_activity WHERE ${pid}::int = ANY (pg_blocking_pids(pid))`;
          return waiting === 0n ? true : undefined;
        }, 20000, 50);
      },
      { maxWait: 10000, timeout: 60000 },
    );
    if (!answer) throw new Error('the execute was never sent');
    return answer;
  }

  const quote = async (): Promise<QuoteView> => {
    const created = await post('/v1/quotes', { accountId: client.accountId, fromAsset: 'USDC', toAsset: 'EUR', fromAmount: '10' }, randomUUID());
    expect(created.status).toBe(201);
    return created.json<QuoteView>();
  };

  /**
   * A quote whose execute (with `key`) was killed in the window: answered 503, the ledger's one
   * trade made, the quote still PENDING; the balances from before.
   */
  async function killedAfterTheTrade(key: string) {
    const usdcBefore = await balance('USDC');
    const eurBefore = await balance('EUR');
    const priced = await quote();
    const first = await executeAndKillBeforeCommit(priced.quoteId, key);
    // The service died holding the reply: the gateway answers 503 and keeps no result for the key.
    expect(first.status).toBe(503);
    // Its transaction died with it: the quote is PENDING, with the ledger's trade posted.
    expect((await prisma.quote.findUnique({ where: { id: priced.quoteId } }))?.status).toBe('PENDING');
    const [posted, ...others] = (await trades(priced.quoteId)).filter((row) => row.type === 'TRADE');
    expect(others).toEqual([]);
    if (!posted) throw new Error('the ledger posted no trade');
    return { priced, posted, usdcBefore, eurBefore };
  }

  /** Moves the quote's expiry into the past (five minutes cannot pass in a test). */
  const expire = (quoteId: string) => prisma.quote.update({ where: { id: quoteId }, data: { expiresAt: new Date(Date.now() - 1000) } });

  /** One trade, the quote COMPLETED with it and used, the balances moved once, the books balanced. */
  async function expectTradedOnce({ priced, posted, usdcBefore, eurBefore }: Awaited<ReturnType<typeof killedAfterTheTrade>>): Promise<void> {
    expect((await call(`/v1/quotes/${priced.quoteId}`, { key: client.apiKey })).json<QuoteView>()).toMatchObject({ status: 'COMPLETED', transactionId: posted.id });
    // A new key now: the quote is used.
    const again = await post(`/v1/quotes/${priced.quoteId}/execute`, undefined, randomUUID());
    expectError(again, 409, 'quote_already_used');

    expect((await trades(priced.quoteId)).filter((row) => row.type === 'TRADE')).toEqual([posted]);
    // Debited and credited once: 10 USDC out, the quote's toAmount in.
    expect((await balance('USDC')).toFixed()).toBe(usdcBefore.minus('10').toFixed());
    expect((await balance('EUR')).toFixed()).toBe(eurBefore.plus(priced.toAmount).toFixed());
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  }

  it.each([
    ['while the quote is still open', false],
    ['after the quote’s expiresAt has passed', true],
  ])('executed again with the same Idempotency-Key %s: the one trade answered, the quote COMPLETED with it', async (_label, expireFirst) => {
    const key = randomUUID();
    const killed = await killedAfterTheTrade(key);
    if (expireFirst) await expire(killed.priced.quoteId);
    await e2e.stack.startApp('quote-service');

    const retried = await eventually(async () => {
      const answer = await post(`/v1/quotes/${killed.priced.quoteId}/execute`, undefined, key);
      return answer.status === 503 ? undefined : answer;
    }, 30000, 200);
    expect(retried.status).toBe(200);
    expect(retried.json<TransactionView>()).toMatchObject({ transactionId: killed.posted.id, type: 'TRADE', status: 'COMPLETED', quoteId: killed.priced.quoteId });
    await expectTradedOnce(killed);
  }, 180000);

  it('never executed again: past expiresAt the reconciler asks the ledger and completes the quote with its trade, with no request from the client', async () => {
    const killed = await killedAfterTheTrade(randomUUID());
    await expire(killed.priced.quoteId);
    // Restarted with the sweeper on; no request reaches the quote until it is settled.
    await e2e.stack.startApp('quote-service', { QUOTE_SWEEP_INTERVAL_MS: '200' });

    const settled = await eventually(async () => {
      const stored = await prisma.quote.findUnique({ where: { id: killed.priced.quoteId }, select: { status: true, transactionId: true } });
      return stored?.status === 'PENDING' ? undefined : stored;
    }, 30000, 100);
    expect(settled).toEqual({ status: 'COMPLETED', transactionId: killed.posted.id });
    await expectTradedOnce(killed);
  }, 180000);

  it('killed just after sending its statement: the quote is recorded anyway, and the same Idempotency-Key answers the trade', async () => {
    const usdcBefore = await balance('USDC');
    const eurBefore = await balance('EUR');
    const priced = await quote();
    const key = randomUUID();
    const first = await executeAndKillBeforeCommit(priced.quoteId, key, { statementSent: true });
    expect(first.status).toBe(503);
    // The statement ran once the lock was gone: the quote and the command's result, together.
    const [posted, ...others] = (await trades(priced.quoteId)).filter((row) => row.type === 'TRADE');
    expect(others).toEqual([]);
    if (!posted) throw new Error('the ledger posted no trade');
    await eventually(async () => ((await prisma.quote.findUnique({ where: { id: priced.quoteId } }))?.status === 'COMPLETED' ? true : undefined), 20000, 50);
    await e2e.stack.startApp('quote-service');

    const retried = await eventually(async () => {
      const answer = await post(`/v1/quotes/${priced.quoteId}/execute`, undefined, key);
      return answer.status === 503 ? undefined : answer;
    }, 30000, 200);
    expect(retried.status).toBe(200);
    expect(retried.json<TransactionView>()).toMatchObject({ transactionId: posted.id, type: 'TRADE', status: 'COMPLETED', quoteId: priced.quoteId });
    await expectTradedOnce({ priced, posted, usdcBefore, eurBefore });
  }, 180000);
});
