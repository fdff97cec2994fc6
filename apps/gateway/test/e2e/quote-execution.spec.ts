import { randomUUID } from 'node:crypto';
import type { QuoteView, TransactionView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { send, type Answer, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, statementCheck, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-quote-exec');
// Each test makes organizations and waits on the shared stack, which other files load at the same time.
jest.setTimeout(120000);

/** The rates of the pairs this file trades (the shared stack's, without drift): every price below is computed from them. */
const RATES = { 'USDC/USD': '1', 'ETH/USDC': '3500' };

const TRANSACTION_ID = /^txn_[0-9a-f]{32}$/;

/** What a trade must leave in the books, each figure a literal computed by hand. */
interface Expected {
  fromAsset: string;
  fromAmount: string;
  toAsset: string;
  toAmount: string;
  fee: string;
}

/*
 * Executing quotes end to end, against the shared stack: the trade as one journal entry to the
 * last unit (balances, the platform's fee and liquidity lines), the quote COMPLETED with its
 * trade, each refusal (expired, already used, short balance, account no longer ACTIVE, another
 * organization's quote) moving no money, the commission to the client's creator, else its
 * referrer, rounded down, and concurrent executes trading once. Every query is scoped to this
 * file's own organizations and quotes.
 *
 * The quote service's own rules live in its specs (apps/quote-service: execute-quote and quote
 * domain specs), the ledger's in apps/ledger-service (post-trade): here, the wiring and the HTTP
 * contract. After this file the ledger invariant check (ledger-invariants.setup.ts,
 * setupFilesAfterEnv of the gateway's jest config) reads the books of everything it did.
 */
describe('quote execution (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const post = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method: 'POST', key, body, headers: { 'Idempotency-Key': randomUUID(), ...headers } });
  /** POST /v1/quotes/{id}/execute, no body; an Idempotency-Key only when one is given. */
  const execute = (key: string, quoteId: string, idempotencyKey?: string) =>
    call(`/v1/quotes/${quoteId}/execute`, { method: 'POST', key, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} });
  const executed = (answer: Answer): TransactionView => {
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: expect.any(String) });
    return answer.json<TransactionView>();
  };
  const readQuote = async (key: string, quoteId: string): Promise<QuoteView> => {
    const answer = await call(`/v1/quotes/${quoteId}`, { key });
    expect(answer.status).toBe(200);
    return answer.json<QuoteView>();
  };
  const storedQuote = (quoteId: string) =>
    prisma.quote.findUniqueOrThrow({ where: { id: quoteId }, select: { status: true, transactionId: true, failureReason: true, referrerShareBps: true } });

  /** The account's balances by asset, as GET /v1/accounts/{id} shows them. */
  const balances = async (org: CreatedOrganization): Promise<Record<string, string>> => {
    const answer = await call(`/v1/accounts/${org.accountId}`, { key: org.apiKey });
    expect(answer.status).toBe(200);
    return Object.fromEntries(answer.json<{ balances: Array<{ asset: string; amount: string }> }>().balances.map((balance) => [balance.asset, balance.amount]));
  };
  /** Every ledger transaction carrying the quote id, by type. */
  const ledgerTransactionsOf = async (quoteId: string) =>
    (await prisma.ledgerTransaction.findMany({ where: { quoteId }, orderBy: { type: 'asc' } })).map((row) => ({ id: row.id, type: row.type, accountId: row.accountId }));
  /**
   * The journal entries of a transaction, each as its lines, sorted: `<account> <asset> <amount>` for a
   * customer account, `platform:<purpose>:<asset> <amount>` for the platform's; amounts as stored, without trailing zeros.
   */
  const journalOf = async (transactionId: string) =>
    (await prisma.ledgerJournal.findMany({ where: { transactionId }, include: { postings: true } })).map((journal) => ({
      kind: journal.kind,
      lines: journal.postings
        .map((posting) => (posting.accountId ? `${posting.accountId} ${posting.asset} ${posting.amount.toFixed()}` : `${posting.platformAccountId} ${posting.amount.toFixed()}`))
        .sort(),
    }));
  /** The ledger outbox's `transaction.status.updated` events of a transaction: the data and the audience beside it. */
  const statusEvents = async (transactionId: string) =>
    (
      await prisma.ledgerOutboxEvent.findMany({
        where: { type: 'transaction.status.updated', payload: { path: ['data', 'transaction_id'], equals: transactionId } },
        orderBy: { createdAt: 'asc' },
      })
    ).map((event) => {
      const { data, audience } = event.payload as { data: unknown; audience: unknown };
      return { data, audience };
    });

  const accountOpened = (key: string, accountId: string) =>
    eventually(async () => ((await call(`/v1/accounts/${accountId}`, { key })).status === 200 ? true : undefined), 15000, 100);
  /** A root organization (no creator, no referrer), verification-approved. */
  const organization = async (label: string): Promise<CreatedOrganization> => {
    const org = await e2e.createOrganization(label);
    await accountOpened(org.apiKey, org.accountId);
    return org;
  };
  /** Activates the asset on the account, then credits it through the faucet. */
  const fund = async (org: CreatedOrganization, asset: string, amount: string): Promise<void> => {
    expect((await post('/v1/funding-methods', org.apiKey, { asset })).status).toBe(200);
    const credited = await post('/v1/transactions/faucet', org.apiKey, { accountId: org.accountId, asset, amount, chainName: 'ETHEREUM_SEPOLIA' });
    expect({ status: credited.status, text: credited.text }).toEqual({ status: 200, text: expect.any(String) });
  };
  const quoteSelling = async (org: CreatedOrganization, fromAsset: string, toAsset: string, fromAmount: string): Promise<QuoteView> => {
    const answer = await post('/v1/quotes', org.apiKey, { accountId: org.accountId, fromAsset, toAsset, fromAmount });
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 201, text: expect.any(String) });
    return answer.json<QuoteView>();
  };

  /** The TRADE view the ledger presents: the quote's fromAmount and fromAsset, the spread fee in it. */
  const tradeView = (org: CreatedOrganization, quoteId: string, expected: Expected) => ({
    object: 'transaction',
    transactionId: expect.stringMatching(TRANSACTION_ID),
    type: 'TRADE',
    status: 'COMPLETED',
    accountId: org.accountId,
    amount: expected.fromAmount,
    asset: expected.fromAsset,
    chainName: null,
    beneficiaryId: null,
    quoteId,
    fee: expected.fee,
    feeAsset: expected.fromAsset,
    counterpartyOrganizationId: null,
    reference: null,
    failureReason: null,
    destination: null,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });

  /** The quote reads COMPLETED with the trade, as stored, and the trade reads as answered. */
  const expectCompleted = async (org: CreatedOrganization, quote: QuoteView, trade: TransactionView): Promise<void> => {
    expect(await readQuote(org.apiKey, quote.quoteId)).toEqual({ ...quote, status: 'COMPLETED', transactionId: trade.transactionId });
    expect(await storedQuote(quote.quoteId)).toMatchObject({ status: 'COMPLETED', transactionId: trade.transactionId, failureReason: null });
    const read = await call(`/v1/transactions/${trade.transactionId}`, { key: org.apiKey });
    expect(read.status).toBe(200);
    expect(read.json()).toEqual(trade);
  };

  /** Nothing was traded for the quote: no ledger transaction carries its id. */
  const expectNothingPosted = async (quoteId: string): Promise<void> => {
    expect(await ledgerTransactionsOf(quoteId)).toEqual([]);
  };

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix, { RATES_DRIFT_BPS: '0', RATE_LIMIT_PER_MINUTE: '100000' });
    // The shared stack prices these pairs at the rates the figures below were computed from.
    const shared = Object.fromEntries((e2e.env.RATES ?? '').split(',').map((pair) => pair.split('=')));
    expect(Object.fromEntries(Object.keys(RATES).map((pair) => [pair, shared[pair]]))).toEqual(RATES);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-quote-execution' });
  }, 180000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  describe('a successful execute', () => {
    it('posts one TRADE entry to the last wei and unit, completes the quote with it and records one event', async () => {
      const org = await organization('e2e exec trader');
      await fund(org, 'ETH', '1');
      // ETH → USDC at 3500, default spread 100 bps: fee 0.00123456789012345678 rounds UP to 0.001234567890123457 (18 decimals);
      // net 0.123456789012345678 − 0.001234567890123457 = 0.122222221122222221; × 3500 = 427.7777739277777735 rounds DOWN to 427.777773.
      const quote = await quoteSelling(org, 'ETH', 'USDC', '0.123456789012345678');
      expect(quote).toMatchObject({
        fromAmount: '0.123456789012345678',
        toAmount: '427.777773',
        spread: { fee: '0.001234567890123457', asset: 'ETH' },
        appliedRate: '3464.999992484999960777',
        status: 'PENDING',
      });
      // A root organization (neither creator nor referrer): no share of the fee to pay.
      expect((await storedQuote(quote.quoteId)).referrerShareBps).toBe(0);
      expect(await balances(org)).toEqual({ ETH: '1.000000000000000000' });

      const answer = await execute(org.apiKey, quote.quoteId, randomUUID());
      const trade = executed(answer);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(trade).toEqual(tradeView(org, quote.quoteId, { fromAsset: 'ETH', fromAmount: '0.123456789012345678', toAsset: 'USDC', toAmount: '427.777773', fee: '0.001234567890123457' }));
      expect(trade.updatedAt).toBe(trade.createdAt);
      await expectCompleted(org, quote, trade);

      // 1 − 0.123456789012345678 = 0.876543210987654322 ETH left; 427.777773 USDC bought.
      expect(await balances(org)).toEqual({ ETH: '0.876543210987654322', USDC: '427.777773' });
      // One entry: the platform's liquidity takes 0.122222221122222221 ETH and pays 427.777773 USDC; fees_earned the whole fee (no creator, no referrer).
      expect(await journalOf(trade.transactionId)).toEqual([
        {
          kind: 'TRADE:COMPLETED',
          lines: [
            `${org.accountId} ETH -0.123456789012345678`,
            `${org.accountId} USDC 427.777773`,
            'platform:fees_earned:ETH 0.001234567890123457',
            'platform:liquidity:ETH 0.122222221122222221',
            'platform:liquidity:USDC -427.777773',
          ].sort(),
        },
      ]);
      expect(await ledgerTransactionsOf(quote.quoteId)).toEqual([{ id: trade.transactionId, type: 'TRADE', accountId: org.accountId }]);

      const events = await statusEvents(trade.transactionId);
      expect(events).toEqual([
        {
          data: {
            object: 'transaction',
            transaction_id: trade.transactionId,
            transaction_type: 'TRADE',
            status: 'COMPLETED',
            previous_status: 'EXPECTED',
            account_id: org.accountId,
            organization_id: org.organizationId,
            role: 'SENDER',
            occurred_at: trade.createdAt,
          },
          audience: { organizationId: org.organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
        },
      ]);
      // The trade is listed among the organization's transactions.
      const listed = await call('/v1/transactions?type=TRADE', { key: org.apiKey });
      expect(listed.json<{ data: TransactionView[] }>().data).toEqual([trade]);
    });
  });

  describe('executing twice', () => {
    it('a second execute is 409 quote_already_used; the first Idempotency-Key replays the original 200; one trade only', async () => {
      const org = await organization('e2e exec twice');
      await fund(org, 'USDC', '100');
      // 10 USDC → USD at 100 bps: fee 0.10; 9.90 × 1 = 9.90.
      const quote = await quoteSelling(org, 'USDC', 'USD', '10');
      expect(quote).toMatchObject({ fromAmount: '10.000000', toAmount: '9.90', spread: { fee: '0.100000', asset: 'USDC' } });
      const key = randomUUID();
      const first = executed(await execute(org.apiKey, quote.quoteId, key));
      expect(first).toEqual(tradeView(org, quote.quoteId, { fromAsset: 'USDC', fromAmount: '10.000000', toAsset: 'USD', toAmount: '9.90', fee: '0.100000' }));

      const used = `Quote ${quote.quoteId} is COMPLETED: a quote can be executed once.`;
      expect(expectError(await execute(org.apiKey, quote.quoteId, randomUUID()), 409, 'quote_already_used').message).toBe(used);
      expect(expectError(await execute(org.apiKey, quote.quoteId), 409, 'quote_already_used').message).toBe(used);

      const replayed = await execute(org.apiKey, quote.quoteId, key);
      expect(replayed.status).toBe(200);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.json()).toEqual(first);

      await expectCompleted(org, quote, first);
      // 100 − 10 = 90.000000 USDC; 9.90 USD.
      expect(await balances(org)).toEqual({ USDC: '90.000000', USD: '9.90' });
      expect(await ledgerTransactionsOf(quote.quoteId)).toEqual([{ id: first.transactionId, type: 'TRADE', accountId: org.accountId }]);
      expect(await statusEvents(first.transactionId)).toHaveLength(1);
    });
  });

  describe('refusals, each moving no money', () => {
    it('409 quote_expired past expiresAt: the quote reads and is stored EXPIRED, nothing posted, the balance unchanged', async () => {
      const org = await organization('e2e exec expired');
      await fund(org, 'USDC', '100');
      const quote = await quoteSelling(org, 'USDC', 'USD', '10');
      // Five minutes cannot pass in a test: the expiry is moved into the past.
      const expiresAt = new Date(Date.now() - 1000);
      await prisma.quote.update({ where: { id: quote.quoteId }, data: { expiresAt } });

      // The shared stack's quote sweeper may store it EXPIRED before the execute does; the answer
      // is the same either way. That the execute itself stores it EXPIRED, although the refusal
      // rolled back the rest, is the execute-quote use-case spec's (apps/quote-service).
      const refused = expectError(await execute(org.apiKey, quote.quoteId, randomUUID()), 409, 'quote_expired');
      expect(refused.message).toBe(`Quote ${quote.quoteId} expired at ${expiresAt.toISOString()}; request a new quote.`);
      expect(await readQuote(org.apiKey, quote.quoteId)).toEqual({ ...quote, status: 'EXPIRED', expiresAt: expiresAt.toISOString() });
      expect(await storedQuote(quote.quoteId)).toMatchObject({ status: 'EXPIRED', transactionId: null, failureReason: null });
      await expectNothingPosted(quote.quoteId);
      expect(await balances(org)).toEqual({ USDC: '100.000000' });
      // Stored EXPIRED: the same answer again.
      expectError(await execute(org.apiKey, quote.quoteId, randomUUID()), 409, 'quote_expired');
      await expectNothingPosted(quote.quoteId);
    });

    it('422 insufficient_funds leaves the quote PENDING and the balance as it was; once funded, the same quote executes', async () => {
      const org = await organization('e2e exec short');
      await fund(org, 'USDC', '100');
      // 123.456789 USDC → USD at 100 bps: fee 1.23456789 rounds UP to 1.234568; 122.222221 × 1 rounds DOWN to 122.22.
      const quote = await quoteSelling(org, 'USDC', 'USD', '123.456789');
      expect(quote).toMatchObject({ fromAmount: '123.456789', toAmount: '122.22', spread: { fee: '1.234568', asset: 'USDC' } });

      expectError(await execute(org.apiKey, quote.quoteId, randomUUID()), 422, 'insufficient_funds');
      expect(await readQuote(org.apiKey, quote.quoteId)).toEqual(quote);
      expect(await storedQuote(quote.quoteId)).toMatchObject({ status: 'PENDING', transactionId: null, failureReason: null });
      await expectNothingPosted(quote.quoteId);
      expect(await balances(org)).toEqual({ USDC: '100.000000' });

      // 100 + 23.456789 = 123.456789: exactly the quote's fromAmount.
      await fund(org, 'USDC', '23.456789');
      const trade = executed(await execute(org.apiKey, quote.quoteId, randomUUID()));
      expect(trade).toEqual(tradeView(org, quote.quoteId, { fromAsset: 'USDC', fromAmount: '123.456789', toAsset: 'USD', toAmount: '122.22', fee: '1.234568' }));
      await expectCompleted(org, quote, trade);
      expect(await balances(org)).toEqual({ USDC: '0.000000', USD: '122.22' });
      // liquidity takes 123.456789 − 1.234568 = 122.222221 USDC and pays 122.22 USD.
      expect(await journalOf(trade.transactionId)).toEqual([
        {
          kind: 'TRADE:COMPLETED',
          lines: [
            `${org.accountId} USDC -123.456789`,
            `${org.accountId} USD 122.22`,
            'platform:fees_earned:USDC 1.234568',
            'platform:liquidity:USDC 122.222221',
            'platform:liquidity:USD -122.22',
          ].sort(),
        },
      ]);
    });

    // SUSPENDED only: that CLOSED is refused alike is the ledger's post-trade use-case spec's, and
    // that a FAILED quote stays used once the account is ACTIVE again the execute-quote use-case spec's.
    it('403 forbidden for an account SUSPENDED since quoting: the quote FAILS with the reason, no trade; then 409 quote_already_used', async () => {
      const status = 'SUSPENDED';
      const org = await organization('e2e exec suspended');
      await fund(org, 'USDC', '100');
      const quote = await quoteSelling(org, 'USDC', 'USD', '10');
      // No public route suspends or closes an account yet: the ledger's row is changed directly.
      await prisma.ledgerAccount.update({ where: { id: org.accountId }, data: { status } });

      const reason = `Account ${org.accountId} is ${status}: only an ACTIVE account can trade.`;
      expect(expectError(await execute(org.apiKey, quote.quoteId, randomUUID()), 403, 'forbidden').message).toBe(reason);
      expect(await readQuote(org.apiKey, quote.quoteId)).toEqual({ ...quote, status: 'FAILED', failureReason: reason });
      expect(await storedQuote(quote.quoteId)).toMatchObject({ status: 'FAILED', transactionId: null, failureReason: reason });
      await expectNothingPosted(quote.quoteId);
      expect(await balances(org)).toEqual({ USDC: '100.000000' });

      const again = expectError(await execute(org.apiKey, quote.quoteId, randomUUID()), 409, 'quote_already_used');
      expect(again.message).toBe(`Quote ${quote.quoteId} is FAILED: a quote can be executed once.`);
      await expectNothingPosted(quote.quoteId);
      expect(await balances(org)).toEqual({ USDC: '100.000000' });
    });

    it('404 quote_not_found for another organization’s quote, which stays PENDING and executable; an unknown or malformed id too', async () => {
      const [owner, stranger] = await Promise.all([organization('e2e exec owner'), organization('e2e exec stranger')]);
      await Promise.all([fund(owner, 'USDC', '100'), fund(stranger, 'USDC', '100')]);
      const quote = await quoteSelling(owner, 'USDC', 'USD', '10');

      const notFound = expectError(await execute(stranger.apiKey, quote.quoteId, randomUUID()), 404, 'quote_not_found');
      expect(notFound.message).toBe(`No quote ${quote.quoteId} was found.`);
      expectError(await execute(stranger.apiKey, quote.quoteId), 404, 'quote_not_found');
      expect(await readQuote(owner.apiKey, quote.quoteId)).toEqual(quote);
      expect((await storedQuote(quote.quoteId)).status).toBe('PENDING');
      await expectNothingPosted(quote.quoteId);
      expect(await balances(stranger)).toEqual({ USDC: '100.000000' });

      expectError(await execute(owner.apiKey, `quote_${'0'.repeat(32)}`, randomUUID()), 404, 'quote_not_found');
      expectError(await execute(owner.apiKey, 'quote_nope', randomUUID()), 404, 'quote_not_found');
      expectError(await execute(owner.apiKey, quote.quoteId.toUpperCase(), randomUUID()), 404, 'quote_not_found');

      // The stranger's attempts used nothing up: the owner executes it.
      const trade = executed(await execute(owner.apiKey, quote.quoteId, randomUUID()));
      expect(trade).toMatchObject({ accountId: owner.accountId, quoteId: quote.quoteId, amount: '10.000000', asset: 'USDC' });
      expect(await balances(owner)).toEqual({ USDC: '90.000000', USD: '9.90' });
      expect(await balances(stranger)).toEqual({ USDC: '100.000000' });
      expectError(await call(`/v1/transactions/${trade.transactionId}`, { key: stranger.apiKey }), 404, 'transaction_not_found');
    });
  });

  describe('commission', () => {
    /** The COMMISSION as its recipient reads it. */
    const commissionView = (recipient: CreatedOrganization, client: CreatedOrganization, quoteId: string, amount: string, trade: TransactionView) => ({
      object: 'transaction',
      transactionId: expect.stringMatching(TRANSACTION_ID),
      type: 'COMMISSION',
      status: 'COMPLETED',
      accountId: recipient.accountId,
      amount,
      asset: 'USDC',
      chainName: null,
      beneficiaryId: null,
      quoteId,
      fee: null,
      feeAsset: null,
      counterpartyOrganizationId: client.organizationId,
      reference: null,
      failureReason: null,
      destination: null,
      createdAt: trade.createdAt,
      updatedAt: trade.createdAt,
    });

    /**
     * Executes the quote and checks the trade, the commission credited to `recipient` in the same
     * entry with its own RECEIVER event, and that the client cannot see the commission.
     */
    async function expectCommission(input: {
      client: CreatedOrganization;
      clientParent: string | null;
      recipient: CreatedOrganization;
      quote: QuoteView;
      expected: Expected;
      commission: string;
      /** The client's debit as the journal stores it. */
      clientPays: string;
      platformKeeps: string;
      liquidityTakes: string;
    }): Promise<void> {
      const { client, recipient, quote, expected, commission } = input;
      const trade = executed(await execute(client.apiKey, quote.quoteId, randomUUID()));
      expect(trade).toEqual(tradeView(client, quote.quoteId, expected));
      await expectCompleted(client, quote, trade);

      const posted = await ledgerTransactionsOf(quote.quoteId);
      expect(posted.map(({ type, accountId }) => ({ type, accountId }))).toEqual([
        { type: 'COMMISSION', accountId: recipient.accountId },
        { type: 'TRADE', accountId: client.accountId },
      ]);
      const commissionId = posted[0]!.id;

      // The recipient sees it, on its primary account.
      const read = await call(`/v1/transactions/${commissionId}`, { key: recipient.apiKey });
      expect(read.status).toBe(200);
      expect(read.json()).toEqual(commissionView(recipient, client, quote.quoteId, commission, trade));
      const listed = (await call('/v1/transactions?type=COMMISSION', { key: recipient.apiKey })).json<{ data: TransactionView[] }>().data;
      expect(listed.map((transaction) => transaction.transactionId)).toEqual([commissionId]);
      expect(await balances(recipient)).toEqual({ USDC: commission });

      // The client does not.
      expectError(await call(`/v1/transactions/${commissionId}`, { key: client.apiKey }), 404, 'transaction_not_found');
      expect((await call('/v1/transactions?type=COMMISSION', { key: client.apiKey })).json<{ data: unknown[] }>().data).toEqual([]);

      // One journal entry for both: the fee split between fees_earned and the recipient.
      expect(await journalOf(trade.transactionId)).toEqual([
        {
          kind: 'TRADE:COMPLETED',
          lines: [
            `${client.accountId} USDC ${input.clientPays}`,
            `${client.accountId} USD ${expected.toAmount}`,
            `${recipient.accountId} USDC ${commission}`,
            `platform:fees_earned:USDC ${input.platformKeeps}`,
            `platform:liquidity:USDC ${input.liquidityTakes}`,
            `platform:liquidity:USD -${expected.toAmount}`,
          ].sort(),
        },
      ]);
      expect(await journalOf(commissionId)).toEqual([]);

      // Each statement points at its reader's own transaction: the recipient's one line is its
      // COMMISSION (never the client's TRADE, which it cannot open), the client's lines its TRADE.
      const recipientStatement = await statementCheck(e2e.baseUrl, recipient);
      expect(recipientStatement).toEqual({ lines: 1, transactionIds: [commissionId], foreign: [] });
      const clientStatement = await statementCheck(e2e.baseUrl, client);
      expect(clientStatement.foreign).toEqual([]);
      expect(clientStatement.transactionIds.slice(0, 2)).toEqual([trade.transactionId, trade.transactionId]);

      // An event each: the trade to the client's audience, the commission to the recipient's.
      expect(await statusEvents(trade.transactionId)).toEqual([
        {
          data: expect.objectContaining({ transaction_type: 'TRADE', role: 'SENDER', organization_id: client.organizationId, account_id: client.accountId }),
          audience: { organizationId: client.organizationId, parentOrganizationId: input.clientParent, parentHoldsActiveLoa: false },
        },
      ]);
      expect(await statusEvents(commissionId)).toEqual([
        {
          data: {
            object: 'transaction',
            transaction_id: commissionId,
            transaction_type: 'COMMISSION',
            status: 'COMPLETED',
            previous_status: 'EXPECTED',
            account_id: recipient.accountId,
            organization_id: recipient.organizationId,
            role: 'RECEIVER',
            occurred_at: trade.createdAt,
          },
          audience: { organizationId: recipient.organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
        },
      ]);
    }

    it('to the creator: a broker’s client on the vip tier (30 bps of the fee), rounded down at USDC’s 6 decimals', async () => {
      const broker = await organization('e2e exec broker');
      const made = await post('/v1/organizations', broker.apiKey, { name: `Exec client ${randomUUID().slice(0, 8)}`, entityType: 'BUSINESS', country: 'DE' });
      expect(made.status).toBe(201);
      const { organizationId, primaryAccountId } = made.json<{ organizationId: string; primaryAccountId: string }>();
      const { apiKey } = await e2e.cli<{ apiKey: string }>('key:create', '--org', organizationId);
      const client: CreatedOrganization = { organizationId, accountId: primaryAccountId, apiKey };
      expect((await post(`/v1/sandbox/organizations/${organizationId}/verification`, broker.apiKey, { status: 'APPROVED' })).status).toBe(200);
      const assigned = await call('/v1/organizations/sub-org-tier', {
        method: 'PUT',
        key: broker.apiKey,
        body: { subOrgTierKey: 'vip' },
        headers: { 'service-on-behalf-of': organizationId, 'Idempotency-Key': randomUUID() },
      });
      expect(assigned.status).toBe(200);
      await accountOpened(apiKey, primaryAccountId);
      expect((await call('/v1/fees', { key: apiKey })).json()).toMatchObject({ tier: { key: 'vip' }, spreadBps: 30, referrerShareBps: 30 });
      await fund(client, 'USDC', '500');

      // 333.333 USDC at 30 bps: fee 333.333 × 30 / 10000 = 0.999999 exactly; 332.333001 × 1 rounds DOWN to 332.33.
      const quote = await quoteSelling(client, 'USDC', 'USD', '333.333');
      expect(quote).toMatchObject({ fromAmount: '333.333000', toAmount: '332.33', spread: { fee: '0.999999', asset: 'USDC' } });
      expect((await storedQuote(quote.quoteId)).referrerShareBps).toBe(30);

      await expectCommission({
        client,
        clientParent: broker.organizationId,
        recipient: broker,
        quote,
        expected: { fromAsset: 'USDC', fromAmount: '333.333000', toAsset: 'USD', toAmount: '332.33', fee: '0.999999' },
        // 0.999999 × 30 / 10000 = 0.0029999970 rounds DOWN to 0.002999 (not 0.003000).
        commission: '0.002999',
        clientPays: '-333.333',
        // 0.999999 − 0.002999 = 0.997000 stays with the platform.
        platformKeeps: '0.997',
        // 333.333 − 0.999999 = 332.333001.
        liquidityTakes: '332.333001',
      });
      // 500 − 333.333 = 166.667000 USDC left; 332.33 USD.
      expect(await balances(client)).toEqual({ USDC: '166.667000', USD: '332.33' });

      expect(await balances(broker)).toEqual({ USDC: '0.002999' });
      // A share that rounds down to nothing is a commission of 0 (the quote domain spec, apps/quote-service),
      // and a commission of 0 is not posted, the platform keeping the whole fee (the ledger's post-trade use-case spec).
    });

    it('to the referrer: an organization signed up through a referral invite, on the preferred tier (20 bps of the fee)', async () => {
      const referrer = await organization('e2e exec referrer');
      const email = `exec-${randomUUID().slice(0, 8)}@example.com`;
      const invite = await post('/v1/referral-invites', referrer.apiKey, { email });
      expect(invite.status).toBe(201);
      const accepted = await post(`/v1/sandbox/referral-invites/${invite.json<{ referralInviteId: string }>().referralInviteId}/accept`, referrer.apiKey, {
        email,
        name: 'Referred Exec Ltd',
      });
      expect(accepted.status).toBe(201);
      const signUp = accepted.json<{ organization: { organizationId: string; primaryAccountId: string; referrerOrganizationId: string | null; parentOrganizationId: string | null }; apiKey: string }>();
      expect(signUp.organization).toMatchObject({ referrerOrganizationId: referrer.organizationId, parentOrganizationId: null });
      const client: CreatedOrganization = { organizationId: signUp.organization.organizationId, accountId: signUp.organization.primaryAccountId, apiKey: signUp.apiKey };
      // A referred organization approves itself in the sandbox.
      expect((await post(`/v1/sandbox/organizations/${client.organizationId}/verification`, client.apiKey, { status: 'APPROVED' })).status).toBe(200);
      await accountOpened(client.apiKey, client.accountId);

      // Without a tier its referrer share is the default 0 (GET /v1/fees, from the pricing quotes are made by). A referred
      // organization has no creator to set its tier: the platform's operator does, with the CLI.
      expect((await call('/v1/fees', { key: client.apiKey })).json()).toMatchObject({ tier: null, spreadBps: 100, referrerShareBps: 0 });
      expect(await e2e.cli('tier:assign', '--org', client.organizationId, '--tier', 'preferred')).toMatchObject({ organizationId: client.organizationId, tier: { key: 'preferred' } });
      await eventually(async () => {
        const fees = (await call('/v1/fees', { key: client.apiKey })).json<{ spreadBps: number; referrerShareBps: number }>();
        return fees.spreadBps === 60 && fees.referrerShareBps === 20 ? true : undefined;
      }, 15000, 100);
      await fund(client, 'USDC', '500');

      // 249.999833 USDC at 60 bps: fee 1.499998998 rounds UP to 1.499999; 248.499834 × 1 rounds DOWN to 248.49.
      const quote = await quoteSelling(client, 'USDC', 'USD', '249.999833');
      expect(quote).toMatchObject({ fromAmount: '249.999833', toAmount: '248.49', spread: { fee: '1.499999', asset: 'USDC' } });
      expect((await storedQuote(quote.quoteId)).referrerShareBps).toBe(20);

      await expectCommission({
        client,
        clientParent: null,
        recipient: referrer,
        quote,
        expected: { fromAsset: 'USDC', fromAmount: '249.999833', toAsset: 'USD', toAmount: '248.49', fee: '1.499999' },
        // 1.499999 × 20 / 10000 = 0.0029999980 rounds DOWN to 0.002999.
        commission: '0.002999',
        clientPays: '-249.999833',
        // 1.499999 − 0.002999 = 1.497000.
        platformKeeps: '1.497',
        // 249.999833 − 1.499999 = 248.499834.
        liquidityTakes: '248.499834',
      });
      // 500 − 249.999833 = 250.000167 USDC left; 248.49 USD.
      expect(await balances(client)).toEqual({ USDC: '250.000167', USD: '248.49' });
    });
  });

  describe('concurrency', () => {
    it('10 concurrent executes of one quote, each with its own key: one 200, nine 409 quote_already_used, one trade', async () => {
      const org = await organization('e2e exec racer');
      await fund(org, 'USDC', '100');
      const quote = await quoteSelling(org, 'USDC', 'USD', '10');

      const answers = await Promise.all(Array.from({ length: 10 }, () => execute(org.apiKey, quote.quoteId, randomUUID())));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      for (const answer of answers.filter((candidate) => candidate.status === 409)) expectError(answer, 409, 'quote_already_used');
      const trade = answers.find((answer) => answer.status === 200)!.json<TransactionView>();
      expect(trade).toEqual(tradeView(org, quote.quoteId, { fromAsset: 'USDC', fromAmount: '10.000000', toAsset: 'USD', toAmount: '9.90', fee: '0.100000' }));

      await expectCompleted(org, quote, trade);
      expect(await ledgerTransactionsOf(quote.quoteId)).toEqual([{ id: trade.transactionId, type: 'TRADE', accountId: org.accountId }]);
      expect(await journalOf(trade.transactionId)).toHaveLength(1);
      expect(await statusEvents(trade.transactionId)).toHaveLength(1);
      // 100 − 10 = 90.000000 USDC; 9.90 USD: debited once.
      expect(await balances(org)).toEqual({ USDC: '90.000000', USD: '9.90' });
    });

    it('2 concurrent executes with the same key: the same 200 twice, or one 409 idempotency_request_in_flight whose retry replays the 200', async () => {
      const org = await organization('e2e exec same key');
      await fund(org, 'USDC', '100');
      // 20 USDC at 100 bps: fee 0.20; 19.80 × 1 = 19.80.
      const quote = await quoteSelling(org, 'USDC', 'USD', '20');
      const key = randomUUID();

      const answers = await Promise.all([execute(org.apiKey, quote.quoteId, key), execute(org.apiKey, quote.quoteId, key)]);
      const succeeded = answers.filter((answer) => answer.status === 200);
      const inFlight = answers.filter((answer) => answer.status !== 200);
      expect(succeeded.length).toBeGreaterThanOrEqual(1);
      for (const answer of inFlight) expectError(answer, 409, 'idempotency_request_in_flight');
      const trade = succeeded[0]!.json<TransactionView>();
      expect(trade).toEqual(tradeView(org, quote.quoteId, { fromAsset: 'USDC', fromAmount: '20.000000', toAsset: 'USD', toAmount: '19.80', fee: '0.200000' }));
      for (const answer of succeeded) expect(answer.json()).toEqual(trade);

      // A retry with the key, once the first has finished, replays the 200.
      const replayed = await execute(org.apiKey, quote.quoteId, key);
      expect(replayed.status).toBe(200);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.json()).toEqual(trade);

      await expectCompleted(org, quote, trade);
      expect(await ledgerTransactionsOf(quote.quoteId)).toEqual([{ id: trade.transactionId, type: 'TRADE', accountId: org.accountId }]);
      expect(await statusEvents(trade.transactionId)).toHaveLength(1);
      // 100 − 20 = 80.000000 USDC; 19.80 USD.
      expect(await balances(org)).toEqual({ USDC: '80.000000', USD: '19.80' });
    });
  });
});
