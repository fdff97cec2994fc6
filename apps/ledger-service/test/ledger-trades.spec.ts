import { Client } from 'pg';
import { Big, newId, type TradePostingView } from '@pfs/contracts';
import { isolateQueues, ledgerInvariantViolations, startServiceUnderTest, statementsDuring, testDatabaseUrl, writesOf, type ServiceUnderTest } from '@pfs/testing';
import { OpenPrimaryAccountUseCase } from '../src/application/use-cases/open-primary-account/open-primary-account.use-case';
import { InMemoryOrganizationDirectory } from './support/in-memory/in-memory-organization-directory';
import { LedgerWithDirectoryModule } from './support/ledger-with-directory.module';

isolateQueues('ledger-trades');

const SLOW = { requestId: 'req_00000000000000000000000000000013', timeoutMs: 60000 };

interface Org {
  organizationId: string;
  accountId: string;
}

/**
 * `trades.post` against the real PostgreSQL and Redis, through the ledger's queue: one journal
 * entry per trade written in one statement, the books, and the quote id as the operation id
 * under concurrency and across command ids.
 */
describe('ledger trades (PostgreSQL, Redis)', () => {
  const directory = new InMemoryOrganizationDirectory();
  let service: ServiceUnderTest;
  let db: Client;

  beforeAll(async () => {
    service = await startServiceUnderTest(LedgerWithDirectoryModule.with(directory));
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await service?.close();
  });

  /** An approved organization with its primary account, funded with `usdc` through the faucet when given. */
  async function organization(setup: { usdc?: string; parentOrganizationId?: string; referrerOrganizationId?: string } = {}): Promise<Org> {
    const organizationId = newId('organization');
    const accountId = newId('account');
    directory.set({
      organizationId,
      verificationStatus: 'APPROVED',
      parentOrganizationId: setup.parentOrganizationId ?? null,
      referrerOrganizationId: setup.referrerOrganizationId ?? null,
    });
    await service.app.get(OpenPrimaryAccountUseCase).execute({ organizationId, accountId });
    if (setup.usdc) {
      await service.bus.send('ledger', 'funding-methods.provision', { organizationId, accountId, asset: 'USDC' }, SLOW);
      await service.bus.send('ledger', 'faucet.credit', { organizationId, accountId, asset: 'USDC', amount: setup.usdc, chainName: 'ETHEREUM_SEPOLIA' }, SLOW);
    }
    return { organizationId, accountId };
  }

  const post = (org: Org, quoteId: string, overrides: Partial<{ fromAmount: string; fee: string; commission: string }> = {}, commandId?: string) =>
    service.bus.send(
      'ledger',
      'trades.post',
      { ...org, quoteId, fromAsset: 'USDC', fromAmount: '40', toAsset: 'ETH', toAmount: '0.0132', fee: '0.4', commission: '0.1', ...overrides },
      { ...SLOW, commandId: commandId ?? newId('command') },
    );

  async function balance(accountId: string, asset: string): Promise<string> {
    const { rows } = await db.query<{ amount: string }>(`SELECT amount::text AS amount FROM "ledger"."balances" WHERE account_id = $1 AND asset = $2`, [accountId, asset]);
    return new Big(rows[0]?.amount ?? '0').toFixed();
  }

  async function count(sql: string, params: unknown[]): Promise<number> {
    const { rows } = await db.query<{ n: string }>(sql, params);
    return Number(rows[0]!.n);
  }

  const tradesOf = (quoteId: string) => count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE quote_id = $1 AND type = 'TRADE'`, [quoteId]);

  it('posts the trade and its commission as one journal entry whose postings balance every asset', async () => {
    const broker = await organization();
    const client = await organization({ usdc: '100', parentOrganizationId: broker.organizationId });
    const quoteId = newId('quote');
    const { trade, commission } = await post(client, quoteId);
    expect(trade).toMatchObject({ type: 'TRADE', status: 'COMPLETED', accountId: client.accountId, amount: '40.000000', asset: 'USDC', quoteId, fee: '0.400000', feeAsset: 'USDC' });
    expect(commission).toMatchObject({ type: 'COMMISSION', status: 'COMPLETED', accountId: broker.accountId, amount: '0.100000', asset: 'USDC', quoteId });

    expect(await balance(client.accountId, 'USDC')).toBe('60');
    expect(await balance(client.accountId, 'ETH')).toBe('0.0132');
    expect(await balance(broker.accountId, 'USDC')).toBe('0.1');
    const { rows: journals } = await db.query<{ id: string; kind: string }>(`SELECT id, kind FROM "ledger"."journals" WHERE transaction_id = $1`, [trade.transactionId]);
    expect(journals).toEqual([{ id: expect.stringMatching(/^jrnl_/), kind: 'TRADE:COMPLETED' }]);
    const { rows: postings } = await db.query<{ account: string; asset: string; amount: string }>(
      `SELECT COALESCE(account_id, platform_account_id) AS account, asset, amount::text AS amount FROM "ledger"."postings" WHERE journal_id = $1`,
      [journals[0]!.id],
    );
    expect(postings.map((row) => `${row.account} ${row.asset} ${new Big(row.amount).toFixed()}`).sort()).toEqual(
      [
        `${client.accountId} USDC -40`,
        'platform:liquidity:USDC USDC 39.6',
        'platform:fees_earned:USDC USDC 0.3',
        `${broker.accountId} USDC 0.1`,
        'platform:liquidity:ETH ETH -0.0132',
        `${client.accountId} ETH 0.0132`,
      ].sort(),
    );
    const { rows: events } = await db.query<{ transaction: string; role: string; organization: string }>(
      `SELECT payload->'data'->>'transaction_id' AS transaction, payload->'data'->>'role' AS role, payload->'data'->>'organization_id' AS organization
       FROM "ledger"."outbox_events" WHERE type = 'transaction.status.updated' AND payload->'data'->>'transaction_id' = ANY($1) ORDER BY role DESC`,
      [[trade.transactionId, commission!.transactionId]],
    );
    expect(events).toEqual([
      { transaction: trade.transactionId, role: 'SENDER', organization: client.organizationId },
      { transaction: commission!.transactionId, role: 'RECEIVER', organization: broker.organizationId },
    ]);
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  });

  it('two concurrent posts of one quote under different command ids post one trade, and both answer it', async () => {
    const referrer = await organization();
    const client = await organization({ usdc: '100', referrerOrganizationId: referrer.organizationId });
    const quoteId = newId('quote');
    const answers = await Promise.all([post(client, quoteId), post(client, quoteId)]);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0].commission).toMatchObject({ accountId: referrer.accountId });
    expect(await tradesOf(quoteId)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM "ledger"."journals" WHERE transaction_id = $1`, [answers[0].trade.transactionId])).toBe(1);
    expect(await balance(client.accountId, 'USDC')).toBe('60');
    expect(await balance(referrer.accountId, 'USDC')).toBe('0.1');
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  });

  it('ten concurrent posts of one quote, each with its own command id, still post once', async () => {
    const client = await organization({ usdc: '100' });
    const quoteId = newId('quote');
    const answers: TradePostingView[] = await Promise.all(Array.from({ length: 10 }, () => post(client, quoteId)));
    expect(new Set(answers.map((answer) => answer.trade.transactionId)).size).toBe(1);
    expect(answers[0]!.commission).toBeNull();
    expect(await tradesOf(quoteId)).toBe(1);
    expect(await balance(client.accountId, 'USDC')).toBe('60');
  });

  it('a repeat after the quote service lost the answer (a new command id) returns the stored trade and writes nothing', async () => {
    const client = await organization({ usdc: '100' });
    const quoteId = newId('quote');
    const first = await post(client, quoteId);
    const events = await count(`SELECT count(*) AS n FROM "ledger"."outbox_events"`, []);
    await db.query(`UPDATE "ledger"."accounts" SET status = 'SUSPENDED' WHERE id = $1`, [client.accountId]);
    expect(await post(client, quoteId)).toEqual(first);
    expect(await count(`SELECT count(*) AS n FROM "ledger"."outbox_events"`, [])).toBe(events);
    expect(await balance(client.accountId, 'USDC')).toBe('60');
  });

  it('refuses a short balance with insufficient_funds and a suspended account with forbidden, writing nothing', async () => {
    const client = await organization({ usdc: '10' });
    const quoteId = newId('quote');
    await expect(post(client, quoteId)).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(await count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE quote_id = $1`, [quoteId])).toBe(0);
    expect(await balance(client.accountId, 'USDC')).toBe('10');
    await db.query(`UPDATE "ledger"."accounts" SET status = 'CLOSED' WHERE id = $1`, [client.accountId]);
    await expect(post(client, quoteId, { fromAmount: '5' })).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining(`${client.accountId} is CLOSED`) });
    expect(await count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE quote_id = $1`, [quoteId])).toBe(0);
  });

  it('PostgreSQL itself refuses a second TRADE for a quote', async () => {
    const client = await organization({ usdc: '100' });
    const quoteId = newId('quote');
    await post(client, quoteId);
    const error = await db
      .query(
        `INSERT INTO "ledger"."transactions" (id, organization_id, account_id, type, status, role, asset, amount, quote_id)
         VALUES ($1, $2, $3, 'TRADE', 'COMPLETED', 'SENDER', 'USDC', 1, $4)`,
        [newId('transaction'), client.organizationId, client.accountId, quoteId],
      )
      .catch((caught: unknown) => caught as { code?: string; constraint?: string });
    expect(error).toMatchObject({ code: '23505', constraint: 'transactions_quote_id_type_key' });
  });

  it('refuses a debit of an asset the account has never held with insufficient_funds, leaving no balance row behind', async () => {
    const client = await organization({ usdc: '100' });
    const quoteId = newId('quote');
    const eth = { fromAsset: 'ETH', fromAmount: '0.5', toAsset: 'USDC', toAmount: '1500', fee: '0.005', commission: '0' };
    await expect(
      service.bus.send('ledger', 'trades.post', { ...client, quoteId, ...eth }, { ...SLOW, commandId: newId('command') }),
    ).rejects.toMatchObject({ code: 'insufficient_funds', message: expect.stringContaining('ETH') });
    expect(await count(`SELECT count(*) AS n FROM "ledger"."balances" WHERE account_id = $1 AND asset = 'ETH'`, [client.accountId])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM "ledger"."transactions" WHERE quote_id = $1`, [quoteId])).toBe(0);
    expect(await balance(client.accountId, 'USDC')).toBe('100');
  });

  it('trades both ways on one account at once all post, in the same lock order, and every balance_after chains', async () => {
    const client = await organization({ usdc: '1000' });
    await service.bus.send('ledger', 'funding-methods.provision', { ...client, asset: 'ETH' }, SLOW);
    await service.bus.send('ledger', 'faucet.credit', { ...client, asset: 'ETH', amount: '10', chainName: 'ETHEREUM_SEPOLIA' }, SLOW);
    const buys = Array.from({ length: 8 }, () => post(client, newId('quote'), { fromAmount: '10', fee: '0.1', commission: '0' }));
    const sells = Array.from({ length: 8 }, () =>
      service.bus.send(
        'ledger',
        'trades.post',
        { ...client, quoteId: newId('quote'), fromAsset: 'ETH', fromAmount: '0.25', toAsset: 'USDC', toAmount: '750', fee: '0.0025', commission: '0' },
        { ...SLOW, commandId: newId('command') },
      ),
    );
    await Promise.all([...buys, ...sells]);
    // 1000 − 8 × 10 + 8 × 750 USDC; 10 + 8 × 0.0132 − 8 × 0.25 ETH.
    expect(await balance(client.accountId, 'USDC')).toBe('6920');
    expect(await balance(client.accountId, 'ETH')).toBe('8.1056');
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  });

  it('sends a trade with its commission as one writing statement, after a few reads, and no transaction of its own', async () => {
    const broker = await organization();
    const client = await organization({ usdc: '100', parentOrganizationId: broker.organizationId });
    await post(client, newId('quote'));
    const sent = await statementsDuring(() => post(client, newId('quote')), { requestId: SLOW.requestId });
    // The command's one write; beside it only the relay's hand-offs, marking events published after their commit.
    expect(writesOf(sent, 'ledger')).toEqual(['WITH w0 AS']);
    // Its reads: the two standings (unless still cached), the account, the earner's primary account;
    // not the command log nor the quote's trade, which only a post that does not go through reads.
    expect(sent.filter((text) => text.startsWith('SELECT')).length).toBeLessThanOrEqual(4);
    expect(sent.filter((text) => text.startsWith('SELECT command_id,'))).toEqual([]);
    // The transactions' read (`SELECT id, organization_id AS …`), which would be the quote's trade.
    expect(sent).not.toContain('SELECT id, organization_id');
  });
});
