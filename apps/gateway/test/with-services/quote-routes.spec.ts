import type { PageView, QuoteView, TransactionView } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { expectError } from '../support/http-client';
import { useStandInRoutes } from '../support/stand-in-service';
import { ACCOUNT_ID, QUOTE_ID, QUOTE_VIEW as VIEW } from '../support/stand-in-views';

const queuePrefix = isolateQueues('gw-quote-routes');

/** What the stand-in answers to `quotes.execute`: the quote's trade, as the ledger posts it (amount and fee in `fromAsset`). */
const TRADE: TransactionView = {
  object: 'transaction',
  transactionId: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e',
  type: 'TRADE',
  status: 'COMPLETED',
  accountId: ACCOUNT_ID,
  amount: '100.00',
  asset: 'USD',
  chainName: null,
  beneficiaryId: null,
  quoteId: QUOTE_ID,
  fee: '1.00',
  feeAsset: 'USD',
  counterpartyOrganizationId: null,
  reference: null,
  failureReason: null,
  destination: null,
  createdAt: '2026-11-21T04:46:30.001Z',
  updatedAt: '2026-11-21T04:46:30.001Z',
};
const EXECUTE = `/v1/quotes/${QUOTE_ID}/execute`;
const PAGE: PageView<QuoteView> = { data: [VIEW, { ...VIEW, status: 'EXPIRED', spread: null }], hasMore: false, nextCursor: null };

const SELL = { accountId: ACCOUNT_ID, fromAsset: 'USD', toAsset: 'EUR', fromAmount: '100.00' };
const BUY = { accountId: ACCOUNT_ID, fromAsset: 'BTC', toAsset: 'USDC', toAmount: '1000.000001' };

/*
 * The gateway's half of the quote routes, against a stand-in for the quote service (the real
 * one is exercised in e2e/quotes.spec.ts): what each route forwards as its command, and what it
 * refuses before asking the service at all (the body's shape, amounts against their asset's
 * scale, both or neither amount, malformed ids), each refusal naming the field.
 */
describe('quote routes at the gateway', () => {
  const routes = useStandInRoutes(queuePrefix, 'quote', (name) => ({ 'quotes.list': PAGE, 'quotes.execute': TRADE })[name] ?? VIEW);
  const { sent, call, refused } = routes;

  describe('what is forwarded', () => {
    it('a sale: 201 with the quote, the amount given and the other one null, with the caller’s organization', async () => {
      const answer = await call('POST', '/v1/quotes', SELL);
      expect(answer.status).toBe(201);
      expect(answer.json()).toEqual(VIEW);
      expect(sent).toEqual([{ name: 'quotes.create', payload: { ...SELL, toAmount: null, organizationId: routes.org.organizationId } }]);
    });

    it('a purchase, and null taken as not given', async () => {
      expect((await call('POST', '/v1/quotes', BUY)).status).toBe(201);
      expect((await call('POST', '/v1/quotes', { ...BUY, fromAmount: null })).status).toBe(201);
      const payload = { ...BUY, fromAmount: null, organizationId: routes.org.organizationId };
      expect(sent).toEqual([
        { name: 'quotes.create', payload },
        { name: 'quotes.create', payload },
      ]);
    });

    it('amounts at exactly each asset’s scale, as sent', async () => {
      for (const [asset, amount] of [
        ['USD', '0.01'],
        ['USDT', '1.000001'],
        ['BTC', '0.00000001'],
        ['ETH', '0.000000000000000001'],
      ] as const) {
        expect((await call('POST', '/v1/quotes', { accountId: ACCOUNT_ID, fromAsset: asset, toAsset: 'EUR', fromAmount: amount })).status).toBe(201);
        expect((await call('POST', '/v1/quotes', { accountId: ACCOUNT_ID, fromAsset: 'EUR', toAsset: asset, toAmount: amount })).status).toBe(201);
      }
      expect(sent.map((command) => [command.payload.fromAmount, command.payload.toAmount])).toEqual([
        ['0.01', null],
        [null, '0.01'],
        ['1.000001', null],
        [null, '1.000001'],
        ['0.00000001', null],
        [null, '0.00000001'],
        ['0.000000000000000001', null],
        [null, '0.000000000000000001'],
      ]);
    });

    it('the same asset on both sides goes to the service, which owns the pairs', async () => {
      expect((await call('POST', '/v1/quotes', { ...SELL, toAsset: 'USD' })).status).toBe(201);
      expect(sent).toHaveLength(1);
    });

    it('the list with its page and filter, and get with the id', async () => {
      const list = await call('GET', '/v1/quotes?limit=10&status=EXPIRED');
      expect(list.status).toBe(200);
      expect(list.json()).toEqual({ object: 'list', ...PAGE });
      expect(list.headers.get('x-page-size')).toBe('2');
      expect(list.headers.get('x-next-cursor')).toBeNull();
      expect(sent).toEqual([
        { name: 'quotes.list', payload: { organizationId: routes.org.organizationId, page: { limit: 10, cursor: null }, filters: { status: 'EXPIRED' } } },
      ]);
      sent.length = 0;
      expect((await call('GET', '/v1/quotes?cursor=abc')).status).toBe(200);
      expect(sent[0]?.payload).toEqual({ organizationId: routes.org.organizationId, page: { limit: 25, cursor: 'abc' }, filters: {} });

      sent.length = 0;
      const got = await call('GET', `/v1/quotes/${QUOTE_ID}`);
      expect(got.status).toBe(200);
      expect(got.json()).toEqual(VIEW);
      expect(sent).toEqual([{ name: 'quotes.get', payload: { organizationId: routes.org.organizationId, quoteId: QUOTE_ID } }]);
    });

    it('a retry with the same Idempotency-Key is answered from the first response, without a second command', async () => {
      const headers = { 'Idempotency-Key': `quote-routes-${Date.now()}` };
      const first = await call('POST', '/v1/quotes', SELL, { headers });
      const again = await call('POST', '/v1/quotes', SELL, { headers });
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.json()).toEqual(first.json());
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(sent).toHaveLength(1);
      expectError(await call('POST', '/v1/quotes', { ...SELL, fromAmount: '100.01' }, { headers }), 422, 'idempotency_key_in_use');
      expect(sent).toHaveLength(1);
    });

    it('execute: 200 with the TRADE transaction, the quote id and the caller’s organization forwarded', async () => {
      const answer = await call('POST', EXECUTE);
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual(TRADE);
      expect(sent).toEqual([{ name: 'quotes.execute', payload: { organizationId: routes.org.organizationId, quoteId: QUOTE_ID } }]);
    });

    it('execute: a body is ignored, as on the other action routes (archive): nothing of it is forwarded', async () => {
      for (const body of [{ fromAmount: '1.00', quoteId: 'quote_00000000000000000000000000000000' }, {}, []]) {
        expect((await call('POST', EXECUTE, body)).status).toBe(200);
      }
      const payload = { organizationId: routes.org.organizationId, quoteId: QUOTE_ID };
      expect(sent).toEqual([0, 1, 2].map(() => ({ name: 'quotes.execute', payload })));
    });

    it('execute: a retry with the same Idempotency-Key replays the 200 without a second command; without one, each is sent', async () => {
      const headers = { 'Idempotency-Key': `quote-execute-${Date.now()}` };
      const first = await call('POST', EXECUTE, undefined, { headers });
      const again = await call('POST', EXECUTE, undefined, { headers });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.json()).toEqual(TRADE);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(sent).toHaveLength(1);
      // The service is what keeps a retry without the key from trading twice (409 quote_already_used).
      expect((await call('POST', EXECUTE)).status).toBe(200);
      expect(sent).toHaveLength(2);
    });
  });

  describe('what is refused before the service is asked', () => {
    it.each(['accountId', 'fromAsset', 'toAsset'])('a quote without %s', async (field) => {
      const { [field as keyof typeof SELL]: _left, ...body } = SELL;
      expect(await refused('POST', '/v1/quotes', body)).toBe(`${field}: is required`);
      expect(await refused('POST', '/v1/quotes', { ...SELL, [field]: null })).toBe(`${field}: is required`);
    });

    it('both amounts, or neither: the message starts with fromAmount', async () => {
      expect(await refused('POST', '/v1/quotes', { ...SELL, toAmount: '90.00' })).toBe('fromAmount: give exactly one of fromAmount and toAmount (both were given)');
      expect(await refused('POST', '/v1/quotes', { accountId: ACCOUNT_ID, fromAsset: 'USD', toAsset: 'EUR' })).toMatch(/^fromAmount: give exactly one of fromAmount and toAmount/);
      expect(await refused('POST', '/v1/quotes', { accountId: ACCOUNT_ID, fromAsset: 'USD', toAsset: 'EUR', fromAmount: null, toAmount: null })).toMatch(
        /^fromAmount: give exactly one of fromAmount and toAmount \(neither/,
      );
    });

    it.each([
      ['an unknown field (a misspelt amount)', { ...SELL, fromAmmount: '1' }, /^fromAmmount: is not a recognised parameter$/],
      ['a malformed accountId', { ...SELL, accountId: 'acct_nope' }, /^accountId: must be an account id/],
      ['an asset outside the catalog', { ...SELL, fromAsset: 'DOGE' }, /^fromAsset: must be one of USD, EUR, USDC, USDT, BTC, ETH$/],
      ['a lower-case asset code', { ...SELL, toAsset: 'eur' }, /^toAsset: must be one of /],
      ['an asset that is not a string', { ...SELL, toAsset: 7 }, /^toAsset: must be one of /],
      ['a JSON number as amount', { ...SELL, fromAmount: 100 }, /^fromAmount: must be a decimal string/],
      ['a negative amount', { ...SELL, fromAmount: '-1.00' }, /^fromAmount: must be a decimal string/],
      ['an exponent', { ...SELL, fromAmount: '1e3' }, /^fromAmount: must be a decimal string/],
      ['a zero amount', { ...SELL, fromAmount: '0.00' }, /^fromAmount: must be greater than zero$/],
      ['USD with 3 decimals', { ...SELL, fromAmount: '1.001' }, /^fromAmount: must have at most 2 decimal places for USD$/],
      ['USDC with 7 decimals', { ...BUY, toAsset: 'USDC', toAmount: '1.0000001' }, /^toAmount: must have at most 6 decimal places for USDC$/],
      ['BTC with 9 decimals', { ...SELL, fromAsset: 'BTC', fromAmount: '0.000000001' }, /^fromAmount: must have at most 8 decimal places for BTC$/],
      ['ETH with 19 decimals', { ...SELL, toAsset: 'ETH', fromAmount: undefined, toAmount: `0.${'0'.repeat(18)}1` }, /^toAmount: must have at most 18 decimal places for ETH$/],
    ])('a quote with %s', async (_label, body, message) => {
      expect(await refused('POST', '/v1/quotes', body)).toMatch(message);
    });

    it.each([
      ['status=OPEN', /^status: must be one of PENDING, COMPLETED, EXPIRED, FAILED$/],
      ['limit=101', /^limit: /],
      ['accountId=acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c', /^accountId: is not a recognised parameter$/],
    ])('the list with %s', async (query, message) => {
      expect(await refused('GET', `/v1/quotes?${query}`)).toMatch(message);
    });

    it('a query parameter on get, create or execute', async () => {
      expect(await refused('GET', `/v1/quotes/${QUOTE_ID}?expand=x`)).toMatch(/^expand: is not a recognised parameter$/);
      expect(await refused('POST', '/v1/quotes?dryRun=true', SELL)).toMatch(/^dryRun: is not a recognised parameter$/);
      expect(await refused('POST', `${EXECUTE}?dryRun=true`)).toMatch(/^dryRun: is not a recognised parameter$/);
    });

    it('a malformed quote id is an unknown quote', async () => {
      for (const id of ['quote_nope', 'quote_3E1F5A7C9B0D2E4F6A8C0B1D3E5F7A9C', ACCOUNT_ID, 'quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c0']) {
        expect(expectError(await call('GET', `/v1/quotes/${id}`), 404, 'quote_not_found').message).toBe('No quote with this id was found.');
        expect(expectError(await call('POST', `/v1/quotes/${id}/execute`), 404, 'quote_not_found').message).toBe('No quote with this id was found.');
      }
      expect(sent).toEqual([]);
    });

    it('Service-On-Behalf-Of, which no quote route supports', async () => {
      expectError(await call('POST', '/v1/quotes', SELL, { headers: { 'Service-On-Behalf-Of': routes.org.organizationId } }), 400, 'invalid_request');
      expectError(await call('GET', '/v1/quotes', undefined, { headers: { 'Service-On-Behalf-Of': routes.org.organizationId } }), 400, 'invalid_request');
      expectError(await call('POST', EXECUTE, undefined, { headers: { 'Service-On-Behalf-Of': routes.org.organizationId } }), 400, 'invalid_request');
      expect(sent).toEqual([]);
    });

    it('a request without an API key', async () => {
      expectError(await routes.gateway.request('/v1/quotes', { method: 'POST', body: SELL }), 401, 'missing_api_key');
      expectError(await routes.gateway.request(`/v1/quotes/${QUOTE_ID}`), 401, 'missing_api_key');
      expectError(await routes.gateway.request(EXECUTE, { method: 'POST' }), 401, 'missing_api_key');
      expect(sent).toEqual([]);
    });
  });

  describe('the document', () => {
    interface Operation {
      operationId: string;
      description: string;
      requestBody?: unknown;
      parameters: Array<{ name: string; in: string }>;
      responses: Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string }; examples?: Record<string, unknown> } } }>;
    }

    it('describes execute: 200 with a Transaction, no body, its own codes under their statuses, and what the service does', async () => {
      const document = (await routes.gateway.request('/openapi.json')).json<{ paths: Record<string, Record<string, Operation>> }>();
      const execute = document.paths['/v1/quotes/{quoteId}/execute']?.post;
      expect(execute?.operationId).toBe('executeQuote');
      expect(execute?.requestBody).toBeUndefined();
      expect(execute?.parameters.filter((parameter) => parameter.in !== 'header').map((parameter) => parameter.name)).toEqual(['quoteId']);
      expect(execute?.responses['200']?.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/Transaction');
      const codes = (status: string) => Object.keys(execute?.responses[status]?.content?.['application/json']?.examples ?? {});
      expect(codes('403')).toEqual(['forbidden']);
      expect(codes('404')).toEqual(['quote_not_found']);
      expect(codes('409')).toEqual(expect.arrayContaining(['quote_expired', 'quote_already_used']));
      expect(codes('422')).toEqual(expect.arrayContaining(['insufficient_funds']));
      for (const text of [
        'one** ledger transaction of type `TRADE`',
        '`referrerShareBps`',
        '`transaction.status.updated`',
        'the quote stays `PENDING`',
        'becomes `FAILED` with a `failureReason`',
        'The quote id is the ledger’s operation id',
        'verification status is not required',
        '`Service-On-Behalf-Of` is not supported on this endpoint',
      ]) {
        expect(execute?.description).toContain(text);
      }
    });
  });

  describe('the codes the quote service answers', () => {
    it.each([
      ['swap_direction_not_allowed', 422, 'USD → USD: the same asset on both sides is not an exchange'],
      ['trade_size_out_of_bounds', 422, 'fromAmount: 0.5 USD is outside the trade size for USD → EUR: from 1 to 1000000 USD.'],
      ['account_not_found', 404, `No account ${ACCOUNT_ID} was found.`],
      ['invalid_request', 400, `accountId: account ${ACCOUNT_ID} is SUSPENDED: only an ACTIVE account can trade`],
    ] as const)('%s is answered %i with the service’s message, as the document says', async (code, status, message) => {
      routes.standIn.failWith = { code, message };
      expect(expectError(await call('POST', '/v1/quotes', SELL), status, code).message).toBe(message);
      expect(sent).toHaveLength(1);
    });

    it('quote_not_found from the service on get', async () => {
      routes.standIn.failWith = { code: 'quote_not_found', message: `No quote ${QUOTE_ID} was found.` };
      expectError(await call('GET', `/v1/quotes/${QUOTE_ID}`), 404, 'quote_not_found');
    });

    it.each([
      ['quote_not_found', 404, `No quote ${QUOTE_ID} was found.`],
      ['quote_expired', 409, `Quote ${QUOTE_ID} expired at 2026-11-21T04:49:09.123Z.`],
      ['quote_already_used', 409, `Quote ${QUOTE_ID} has already been executed.`],
      ['insufficient_funds', 422, `The available USD balance of ${ACCOUNT_ID} is too low: 100.00 needed.`],
      ['forbidden', 403, `Account ${ACCOUNT_ID} is SUSPENDED: the quote can no longer be executed.`],
    ] as const)('execute: %s is answered %i with the service’s message, as the document says', async (code, status, message) => {
      routes.standIn.failWith = { code, message };
      expect(expectError(await call('POST', EXECUTE), status, code).message).toBe(message);
      expect(sent).toEqual([{ name: 'quotes.execute', payload: { organizationId: routes.org.organizationId, quoteId: QUOTE_ID } }]);
    });
  });
});
