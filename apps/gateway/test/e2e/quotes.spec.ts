import { randomUUID } from 'node:crypto';
import type { QuoteView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { send, type Answer, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-quotes');
// Each test makes organizations and waits on the shared stack, which other files load at the same time.
jest.setTimeout(120000);

/**
 * The sandbox's default mid-rates without USDT/USDC, so that one pair of the catalog has no rate
 * (every pair has one by default). Every other rate is the default. The shared stack's RATES.
 */
const RATES =
  'EUR/USD=1.08,USDC/USD=1,USDT/USD=1,BTC/USD=97000,ETH/USD=3500,' +
  'EUR/USDC=1.08,EUR/USDT=1.08,BTC/EUR=89800,ETH/EUR=3240,' +
  'BTC/USDC=97000,ETH/USDC=3500,BTC/USDT=97000,ETH/USDT=3500,' +
  'ETH/BTC=0.036';

const QUOTE_ID = /^quote_[0-9a-f]{32}$/;
const LIFETIME_MS = 300_000;

type Body = Record<string, unknown>;

/** What a quote's price should be: every value a literal computed by hand (api-decisions §6). */
interface Price {
  fromAsset: string;
  toAsset: string;
  fromAmount: string;
  toAmount: string;
  /** The spread fee in fromAsset; null for none. */
  fee: string | null;
  appliedRate: string;
}

/*
 * Quotes end to end, against the shared stack: the pricing of api-decisions §6 to the last unit
 * at each scale (2, 6, 8, 18) in both directions, every refusal (creating nothing), isolation
 * between organizations, idempotent creation, the list (pages, status filter, a quote past its
 * expiry settled with the ledger) and a tier change that reprices only later quotes. Every list
 * and query is scoped to this file's own organizations; the trade size bounds asserted are the
 * defaults, which the shared stack does not override (no QUOTE_TRADE_LIMITS).
 */
describe('quotes (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let owner: CreatedOrganization;
  let stranger: CreatedOrganization;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const post = (key: string, body: Body, idempotencyKey: string = randomUUID()) =>
    call('/v1/quotes', { method: 'POST', key, body, headers: { 'Idempotency-Key': idempotencyKey } });
  const created = (answer: Answer): QuoteView => {
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 201, text: expect.any(String) });
    return answer.json<QuoteView>();
  };
  const sell = (org: CreatedOrganization, fromAsset: string, toAsset: string, fromAmount: string) =>
    post(org.apiKey, { accountId: org.accountId, fromAsset, toAsset, fromAmount });
  const buy = (org: CreatedOrganization, fromAsset: string, toAsset: string, toAmount: string) =>
    post(org.apiKey, { accountId: org.accountId, fromAsset, toAsset, toAmount });

  /** The whole quote as created: the price, PENDING, nothing executed, expiring 300 s after creation. */
  const expectCreated = (quote: QuoteView, price: Price, accountId: string): void => {
    const { fee, ...amounts } = price;
    expect(quote).toEqual({
      object: 'quote',
      quoteId: expect.stringMatching(QUOTE_ID),
      accountId,
      ...amounts,
      spread: fee === null ? null : { fee, asset: price.fromAsset },
      status: 'PENDING',
      transactionId: null,
      failureReason: null,
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(LIFETIME_MS);
  };

  /** Every quote of the list, walking the cursors. */
  const listAll = async (key: string, query = '', limit = 100): Promise<QuoteView[]> => {
    const found: QuoteView[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await call(`/v1/quotes?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
      expect(page.status).toBe(200);
      const body = page.json<{ data: QuoteView[]; nextCursor: string | null; hasMore: boolean }>();
      expect(body.data.length).toBeLessThanOrEqual(limit);
      expect(page.headers.get('x-page-size')).toBe(String(body.data.length));
      expect(body.hasMore).toBe(body.nextCursor !== null);
      found.push(...body.data);
      cursor = body.nextCursor;
    } while (cursor);
    return found;
  };

  /** An organization's primary account as its owner reads it (open by the time the CLI answers). */
  const accountOpened = (key: string, accountId: string) =>
    eventually(async () => ((await call(`/v1/accounts/${accountId}`, { key })).status === 200 ? true : undefined), 15000, 100);
  const organization = async (label: string): Promise<CreatedOrganization> => {
    const org = await e2e.createOrganization(label);
    await accountOpened(org.apiKey, org.accountId);
    return org;
  };

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix, { RATES, RATES_DRIFT_BPS: '0', RATE_LIMIT_PER_MINUTE: '100000' });
    // The refusals below name the default trade size bounds.
    expect(e2e.env.QUOTE_TRADE_LIMITS).toBeUndefined();
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-quotes' });
    [owner, stranger] = await Promise.all([organization('e2e quote owner'), organization('e2e quote stranger')]);
  }, 180000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  describe('pricing (api-decisions §6, default spread 100 bps)', () => {
    it.each<[string, Price]>([
      // fee 100 × 100 / 10000 = 1.00; (100.00 − 1.00) × 1.08 = 106.92; 106.92 / 100 = 1.0692.
      ['EUR → USD, scale 2 → 2', { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '100.00', toAmount: '106.92', fee: '1.00', appliedRate: '1.0692' }],
      // fee 0.0101 rounds UP to 0.02; (1.01 − 0.02) × 1.08 = 1.0692 rounds DOWN to 1.06; 1.06 / 1.01 = 1.0495049504950495049504…, 18 decimals down.
      ['EUR → USD, fee and amount rounded at scale 2', { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '1.01', toAmount: '1.06', fee: '0.02', appliedRate: '1.049504950495049504' }],
      // fee 0.0000012345 rounds UP to 0.00000124; 0.00012221 × 97000 = 11.85437 rounds DOWN to 11.85; 11.85 / 0.00012345 = 95990.2794653705953827460…
      ['BTC → USD, scale 8 → 2', { fromAsset: 'BTC', toAsset: 'USD', fromAmount: '0.00012345', toAmount: '11.85', fee: '0.00000124', appliedRate: '95990.279465370595382746' }],
      // fee 0.00123456789012345678 rounds UP to 0.001234567890123457 (18 decimals); 0.122222221122222221 × 3500 = 427.7777739277777735 rounds DOWN to 427.777773.
      [
        'ETH → USDC, scale 18 → 6',
        { fromAsset: 'ETH', toAsset: 'USDC', fromAmount: '0.123456789012345678', toAmount: '427.777773', fee: '0.001234567890123457', appliedRate: '3464.999992484999960777' },
      ],
      // fee 0.015; 1.485 × 0.036 = 0.05346 exactly; rate 0.05346 / 1.5 = 0.03564. Amounts written at their scales.
      [
        'ETH → BTC, scale 18 → 8',
        { fromAsset: 'ETH', toAsset: 'BTC', fromAmount: '1.500000000000000000', toAmount: '0.05346000', fee: '0.015000000000000000', appliedRate: '0.03564' },
      ],
      // fee 0.10000001 rounds UP to 0.100001; 9.9 × 1 = 9.90; 9.9 / 10.000001 = 0.98999990100000989999…
      ['USDT → USD, scale 6 → 2', { fromAsset: 'USDT', toAsset: 'USD', fromAmount: '10.000001', toAmount: '9.90', fee: '0.100001', appliedRate: '0.989999901000009899' }],
      // fee 0.005; 0.495 × 89800 = 44451; an integral rate is written without a fraction.
      ['BTC → EUR, an integral applied rate', { fromAsset: 'BTC', toAsset: 'EUR', fromAmount: '0.50000000', toAmount: '44451.00', fee: '0.00500000', appliedRate: '88902' }],
      // fee 10.00; 990 × 1.08 = 1069.2, written at USDC's 6 decimals.
      ['EUR → USDC, scale 2 → 6', { fromAsset: 'EUR', toAsset: 'USDC', fromAmount: '1000.00', toAmount: '1069.200000', fee: '10.00', appliedRate: '1.0692' }],
      // Exactly the ETH minimum: fee 0.000003; 0.000297 × 3240 = 0.96228 rounds DOWN to 0.96.
      [
        'ETH → EUR at the minimum trade size',
        { fromAsset: 'ETH', toAsset: 'EUR', fromAmount: '0.000300000000000000', toAmount: '0.96', fee: '0.000003000000000000', appliedRate: '3200' },
      ],
      // Exactly the EUR maximum.
      ['EUR → USD at the maximum trade size', { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '1000000.00', toAmount: '1069200.00', fee: '10000.00', appliedRate: '1.0692' }],
    ])('selling: %s', async (_label, price) => {
      const fromAmount = price.fromAmount.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
      const quote = created(await sell(owner, price.fromAsset, price.toAsset, fromAmount));
      expectCreated(quote, price, owner.accountId);
      expect((await call(`/v1/quotes/${quote.quoteId}`, { key: owner.apiKey })).json()).toEqual(quote);
    });

    it.each<[string, Price, string]>([
      // 100.00 EUR yields exactly 106.92; 99.99 (fee 0.9999 → 1.00, 98.99 × 1.08 = 106.9092) yields only 106.90.
      ['EUR → USD, an exact yield', { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '100.00', toAmount: '106.92', fee: '1.00', appliedRate: '1.0692' }, '106.92'],
      // 93.54 EUR: fee 0.9354 → 0.94, 92.60 × 1.08 = 100.008 → 100.00. 93.53: fee 0.94, 92.59 × 1.08 = 99.9972 → 99.99, short.
      ['EUR → USD, the smallest that yields at least', { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '93.54', toAmount: '100.00', fee: '0.94', appliedRate: '1.06906136412230062' }, '100.00'],
      // 0.01041342 BTC: fee 0.00010414, 0.01030928 × 97000 = 1000.00016 → 1000.00; one satoshi less yields 999.99.
      ['BTC → USD, scale 8 solved', { fromAsset: 'BTC', toAsset: 'USD', fromAmount: '0.01041342', toAmount: '1000.00', fee: '0.00010414', appliedRate: '96029.93060877214210125' }, '1000'],
      // 0.000577200865800867 ETH: fee 0.000005772008658009 (up), net 0.000571428857142858 × 3500 = 2.000001000000003 → 2.000001; one wei less yields 2.000000.
      [
        'ETH → USDC, scale 18 solved',
        { fromAsset: 'ETH', toAsset: 'USDC', fromAmount: '0.000577200865800867', toAmount: '2.000001', fee: '0.000005772008658009', appliedRate: '3464.999999999992801466' },
        '2.000001',
      ],
      // 0.280583613916947251 ETH yields 0.01000000 BTC; one wei less yields 0.00999999.
      [
        'ETH → BTC, scale 8 asked',
        { fromAsset: 'ETH', toAsset: 'BTC', fromAmount: '0.280583613916947251', toAmount: '0.01000000', fee: '0.002805836139169473', appliedRate: '0.035639999999999999' },
        '0.01',
      ],
      // 50.505051 USDT: fee 0.50505051 → 0.505051, net 50.000000 → 50.00; 50.505050 yields 49.99.
      ['USDT → USD, scale 6 solved', { fromAsset: 'USDT', toAsset: 'USD', fromAmount: '50.505051', toAmount: '50.00', fee: '0.505051', appliedRate: '0.989999990298000095' }, '50'],
    ])('buying: %s', async (_label, price, toAmount) => {
      const quote = created(await buy(owner, price.fromAsset, price.toAsset, toAmount));
      expectCreated(quote, price, owner.accountId);
    });
  });

  describe('refusals, each creating nothing', () => {
    let refuser: CreatedOrganization;
    let suspendedAccountId: string;
    let closedAccountId: string;

    beforeAll(async () => {
      refuser = await organization('e2e quote refuser');
      const openAccount = async (name: string, status: string): Promise<string> => {
        const opened = await call('/v1/accounts', { method: 'POST', key: refuser.apiKey, body: { name }, headers: { 'Idempotency-Key': randomUUID() } });
        expect(opened.status).toBe(201);
        const { accountId } = opened.json<{ accountId: string }>();
        // No public route suspends or closes an account yet: the ledger's row is changed directly.
        await prisma.ledgerAccount.update({ where: { id: accountId }, data: { status } });
        return accountId;
      };
      [suspendedAccountId, closedAccountId] = await Promise.all([openAccount('Suspended', 'SUSPENDED'), openAccount('Closed', 'CLOSED')]);
    }, 60000);

    const attempt = (body: Body) => post(refuser.apiKey, { accountId: refuser.accountId, fromAsset: 'EUR', toAsset: 'USD', ...body });

    it.each<[string, Body, RegExp]>([
      ['both amounts', { fromAmount: '100', toAmount: '100' }, /^fromAmount: /],
      ['neither amount', {}, /^fromAmount: /],
      ['both amounts null', { fromAmount: null, toAmount: null }, /^fromAmount: /],
      ['fromAmount over the scale of EUR', { fromAmount: '100.001' }, /^fromAmount: .*2 decimal/],
      ['toAmount over the scale of USD', { toAmount: '100.001' }, /^toAmount: .*2 decimal/],
      ['toAmount over the scale of BTC', { toAsset: 'BTC', toAmount: '0.000000001' }, /^toAmount: .*8 decimal/],
      ['fromAmount over the scale of USDC', { fromAsset: 'USDC', fromAmount: '1.0000001' }, /^fromAmount: .*6 decimal/],
      ['fromAmount over the scale of ETH', { fromAsset: 'ETH', fromAmount: '1.0000000000000000001' }, /^fromAmount: .*18 decimal/],
      ['a zero amount', { fromAmount: '0.00' }, /^fromAmount: /],
      ['a negative amount', { fromAmount: '-5' }, /^fromAmount: /],
      ['an amount as a JSON number', { fromAmount: 100 }, /^fromAmount: /],
      ['an exponent', { toAmount: '1e2' }, /^toAmount: /],
      ['an unknown fromAsset', { fromAsset: 'DOGE', fromAmount: '10' }, /^fromAsset: /],
      ['an unknown toAsset', { toAsset: 'GBP', fromAmount: '10' }, /^toAsset: /],
      ['a malformed accountId', { accountId: 'acct_123', fromAmount: '10' }, /^accountId: /],
      ['an unknown field', { fromAmount: '10', rate: '1.2' }, /^rate: /],
    ])('400 invalid_request for %s, naming the field', async (_label, body, message) => {
      expect(expectError(await attempt(body), 400, 'invalid_request').message).toMatch(message);
    });

    it('400 invalid_request for an account that is not ACTIVE, naming accountId', async () => {
      for (const accountId of [suspendedAccountId, closedAccountId]) {
        expect(expectError(await attempt({ accountId, fromAmount: '100' }), 400, 'invalid_request').message).toMatch(/^accountId: /);
      }
    });

    it('422 swap_direction_not_allowed for the same asset on both sides, in either direction, and for a pair without a rate', async () => {
      for (const body of [
        { fromAsset: 'USD', toAsset: 'USD', fromAmount: '100' },
        { fromAsset: 'BTC', toAsset: 'BTC', toAmount: '1' },
        { fromAsset: 'USDT', toAsset: 'USDC', fromAmount: '100' },
        { fromAsset: 'USDC', toAsset: 'USDT', toAmount: '100' },
      ]) {
        expectError(await attempt(body), 422, 'swap_direction_not_allowed');
      }
    });

    it.each<[string, Body, string, string]>([
      ['below the EUR minimum', { fromAmount: '0.99' }, '1', '1000000'],
      ['above the EUR maximum', { fromAmount: '1000000.01' }, '1', '1000000'],
      ['below the BTC minimum', { fromAsset: 'BTC', fromAmount: '0.00000999' }, '0.00001', '10'],
      ['above the BTC maximum', { fromAsset: 'BTC', fromAmount: '10.00000001' }, '0.00001', '10'],
      ['below the ETH minimum, by one wei', { fromAsset: 'ETH', fromAmount: '0.000299999999999999' }, '0.0003', '300'],
      ['above the ETH maximum', { fromAsset: 'ETH', fromAmount: '300.000000000000000001' }, '0.0003', '300'],
      ['below the USDC minimum', { fromAsset: 'USDC', fromAmount: '0.999999' }, '1', '1000000'],
      // The bounds hold for the fromAmount solved from toAmount: 0.000288600577200578 ETH is below 0.0003.
      ['a toAmount needing less ETH than the minimum', { fromAsset: 'ETH', toAsset: 'USDC', toAmount: '1.000001' }, '0.0003', '300'],
      // 0.01 EUR needs 0.00000013 BTC.
      ['a toAmount needing less BTC than the minimum', { fromAsset: 'BTC', toAsset: 'EUR', toAmount: '0.01' }, '0.00001', '10'],
      // 1069200.01 USD needs just over 1000000 EUR.
      ['a toAmount needing more EUR than the maximum', { toAmount: '1069200.01' }, '1', '1000000'],
    ])('422 trade_size_out_of_bounds %s, naming both bounds', async (_label, body, min, max) => {
      const { message } = expectError(await attempt(body), 422, 'trade_size_out_of_bounds');
      expect(message).toContain(` ${min} `);
      expect(message).toContain(` ${max} `);
    });

    it('404 account_not_found for another organization’s account and for an unknown one', async () => {
      for (const accountId of [owner.accountId, `acct_${'0'.repeat(32)}`]) {
        expectError(await attempt({ accountId, fromAmount: '100' }), 404, 'account_not_found');
      }
    });

    it('created nothing: the refused organization’s list is empty, and so is its table', async () => {
      expect(await listAll(refuser.apiKey)).toEqual([]);
      expect(await prisma.quote.count({ where: { organizationId: refuser.organizationId } })).toBe(0);
    });
  });

  describe('reading, isolation and idempotency', () => {
    it('another organization’s quote is 404 quote_not_found and absent from its list; an unknown or malformed id too', async () => {
      const quote = created(await sell(owner, 'EUR', 'USD', '250'));
      expectError(await call(`/v1/quotes/${quote.quoteId}`, { key: stranger.apiKey }), 404, 'quote_not_found');
      expect((await listAll(stranger.apiKey)).map((item) => item.quoteId)).not.toContain(quote.quoteId);
      expect((await listAll(owner.apiKey)).map((item) => item.quoteId)).toContain(quote.quoteId);
      expectError(await call(`/v1/quotes/quote_${'0'.repeat(32)}`, { key: owner.apiKey }), 404, 'quote_not_found');
      expectError(await call('/v1/quotes/quote_nope', { key: owner.apiKey }), 404, 'quote_not_found');
      expectError(await sell({ ...stranger, accountId: owner.accountId }, 'EUR', 'USD', '100'), 404, 'account_not_found');
    });

    it('the same Idempotency-Key and body answer the same quote, created once; another body with the key is 422', async () => {
      const org = await organization('e2e quote idempotency');
      const key = randomUUID();
      const body = { accountId: org.accountId, fromAsset: 'BTC', toAsset: 'USDT', toAmount: '123.456789' };
      const first = created(await post(org.apiKey, body, key));
      const again = await post(org.apiKey, body, key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json()).toEqual(first);
      expectError(await post(org.apiKey, { ...body, toAmount: '123.45679' }, key), 422, 'idempotency_key_in_use');
      expect((await listAll(org.apiKey)).map((item) => item.quoteId)).toEqual([first.quoteId]);
      // Another key with the same body is a new quote, at the same price.
      const other = created(await post(org.apiKey, body));
      expect(other.quoteId).not.toBe(first.quoteId);
      expect({ ...other, quoteId: first.quoteId, createdAt: first.createdAt, expiresAt: first.expiresAt }).toEqual(first);
    });
  });

  describe('the list', () => {
    let pager: CreatedOrganization;
    let quotes: QuoteView[];

    beforeAll(async () => {
      pager = await organization('e2e quote pager');
      quotes = [];
      // One at a time, so creation order is the list's order.
      for (const amount of ['10', '20', '30', '40', '50']) quotes.push(created(await sell(pager, 'USDC', 'EUR', amount)));
    }, 60000);

    it('walks newest first in pages of 2, the headers matching the body', async () => {
      const walked = await listAll(pager.apiKey, '', 2);
      expect(walked).toEqual([...quotes].reverse());
      const first = await call('/v1/quotes?limit=2', { key: pager.apiKey });
      expect(first.headers.get('x-next-cursor')).toBe(first.json<{ nextCursor: string }>().nextCursor);
      expect(walked.map((quote) => quote.fromAmount)).toEqual(['50.000000', '40.000000', '30.000000', '20.000000', '10.000000']);
    });

    it('filters by status; a PENDING quote past its expiresAt, without a trade, is listed, filtered and read EXPIRED, as the ledger answers', async () => {
      expect(await listAll(pager.apiKey, '&status=PENDING', 2)).toEqual([...quotes].reverse());
      expect(await listAll(pager.apiKey, '&status=EXPIRED')).toEqual([]);
      expect(await listAll(pager.apiKey, '&status=COMPLETED')).toEqual([]);

      // Five minutes cannot pass in a test: the second quote's expiry is moved into the past.
      const expiring = quotes[1];
      await prisma.quote.update({ where: { id: expiring.quoteId }, data: { expiresAt: new Date(Date.now() - 1000) } });
      // The list asks the ledger about it first (no trade), and stores what it shows; the shared
      // stack's quote sweeper may have stored it EXPIRED already, with the same outcome.
      const expired = await listAll(pager.apiKey, '&status=EXPIRED');
      expect(expired.map((quote) => [quote.quoteId, quote.status, quote.transactionId])).toEqual([[expiring.quoteId, 'EXPIRED', null]]);
      expect((await prisma.quote.findUniqueOrThrow({ where: { id: expiring.quoteId } })).status).toBe('EXPIRED');
      const read = (await call(`/v1/quotes/${expiring.quoteId}`, { key: pager.apiKey })).json<QuoteView>();
      expect(read.status).toBe('EXPIRED');
      expect(read.fromAmount).toBe(expiring.fromAmount);
      const pending = await listAll(pager.apiKey, '&status=PENDING', 2);
      expect(pending.map((quote) => quote.quoteId)).toEqual([quotes[4], quotes[3], quotes[2], quotes[0]].map((quote) => quote.quoteId));
      const all = await listAll(pager.apiKey);
      expect(all.map((quote) => quote.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'EXPIRED', 'PENDING']);
    });

    it('refuses a cursor used with another filter', async () => {
      const page = (await call('/v1/quotes?limit=1&status=PENDING', { key: pager.apiKey })).json<{ nextCursor: string }>();
      expect(page.nextCursor).toEqual(expect.any(String));
      expectError(await call(`/v1/quotes?limit=1&cursor=${encodeURIComponent(page.nextCursor)}`, { key: pager.apiKey }), 400, 'invalid_request');
    });
  });

  describe('pricing tiers', () => {
    it('a tier change reprices only the quotes made after it; the first keeps its spread', async () => {
      const broker = await organization('e2e quote broker');
      const made = await call('/v1/organizations', {
        method: 'POST',
        key: broker.apiKey,
        body: { name: `Quote client ${randomUUID().slice(0, 8)}`, entityType: 'BUSINESS', country: 'DE' },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(made.status).toBe(201);
      const { organizationId, primaryAccountId } = made.json<{ organizationId: string; primaryAccountId: string }>();
      const { apiKey } = await e2e.cli<{ apiKey: string }>('key:create', '--org', organizationId);
      const client: CreatedOrganization = { organizationId, accountId: primaryAccountId, apiKey };
      await accountOpened(apiKey, primaryAccountId);

      const EUR_USD = { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '100.00' } as const;
      const before = created(await sell(client, 'EUR', 'USD', '100'));
      expectCreated(before, { ...EUR_USD, toAmount: '106.92', fee: '1.00', appliedRate: '1.0692' }, primaryAccountId);

      const assigned = await call('/v1/organizations/sub-org-tier', {
        method: 'PUT',
        key: broker.apiKey,
        body: { subOrgTierKey: 'vip' },
        headers: { 'service-on-behalf-of': organizationId, 'Idempotency-Key': randomUUID() },
      });
      expect(assigned.status).toBe(200);
      await eventually(async () => ((await call('/v1/fees', { key: apiKey })).json<{ spreadBps: number }>().spreadBps === 30 ? true : undefined), 15000, 100);

      // vip, 30 bps: fee 0.30; 99.70 × 1.08 = 107.676 → 107.67.
      const after = created(await sell(client, 'EUR', 'USD', '100'));
      expectCreated(after, { ...EUR_USD, toAmount: '107.67', fee: '0.30', appliedRate: '1.0767' }, primaryAccountId);
      // 1.00 EUR at 30 bps: a fee of 0.003 rounds up to 0.01; 0.99 × 1.08 = 1.0692 → 1.06.
      expectCreated(
        created(await sell(client, 'EUR', 'USD', '1')),
        { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '1.00', toAmount: '1.06', fee: '0.01', appliedRate: '1.06' },
        primaryAccountId,
      );
      // Buying 100.00 USD at 30 bps: 92.88 EUR (fee 0.2786 → 0.28, 92.60 × 1.08 = 100.008); 92.87 yields 99.99.
      expectCreated(
        created(await buy(client, 'EUR', 'USD', '100')),
        { fromAsset: 'EUR', toAsset: 'USD', fromAmount: '92.88', toAmount: '100.00', fee: '0.28', appliedRate: '1.076658053402239448' },
        primaryAccountId,
      );

      expect((await call(`/v1/quotes/${before.quoteId}`, { key: apiKey })).json()).toEqual(before);
      expect((await listAll(apiKey)).find((quote) => quote.quoteId === before.quoteId)).toEqual(before);
    });
  });
});
