import type { QuoteView, TransactionView } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { AMOUNT_PATTERN } from '../src/validation/is-amount.decorator';
import { useStandInRoutes } from './support/stand-in-service';

const queuePrefix = isolateQueues('gw-amount-bounds');

const ACCOUNT_ID = 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c';
const BENEFICIARY_ID = 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f';
const BOUND = 'must have at most 15 digits before the decimal point (less than 1000000000000000)';

/** What the stand-in ledger answers: a transaction, so responses match the document. */
const TRANSACTION: TransactionView = {
  object: 'transaction',
  transactionId: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e',
  type: 'CRYPTO_PAYIN',
  status: 'COMPLETED',
  accountId: ACCOUNT_ID,
  amount: '1.00',
  asset: 'USD',
  chainName: null,
  beneficiaryId: null,
  quoteId: null,
  fee: null,
  feeAsset: null,
  counterpartyOrganizationId: null,
  reference: null,
  failureReason: null,
  createdAt: '2026-11-28T15:00:00.000Z',
  updatedAt: '2026-11-28T15:00:00.000Z',
};
/** What the stand-in quote service answers. */
const QUOTE: QuoteView = {
  object: 'quote',
  quoteId: 'quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c',
  accountId: ACCOUNT_ID,
  fromAsset: 'USD',
  toAsset: 'EUR',
  fromAmount: '100.00',
  toAmount: '91.66',
  appliedRate: '0.9166',
  spread: { fee: '1.00', asset: 'USD' },
  status: 'PENDING',
  transactionId: null,
  failureReason: null,
  expiresAt: '2026-11-28T15:05:00.000Z',
  createdAt: '2026-11-28T15:00:00.000Z',
};

/** Every amount a request body takes: the route, the field, and a body carrying `amount` in it. */
const AMOUNT_FIELDS: ReadonlyArray<readonly [route: string, field: string, body: (amount: string) => Record<string, unknown>, success: number]> = [
  ['/v1/transactions/faucet', 'amount', (amount) => ({ accountId: ACCOUNT_ID, asset: 'ETH', amount, chainName: 'ETHEREUM_SEPOLIA' }), 200],
  ['/v1/payouts/fiat', 'amount', (amount) => ({ accountId: ACCOUNT_ID, beneficiaryId: BENEFICIARY_ID, asset: 'USD', amount }), 201],
  ['/v1/payouts/crypto', 'amount', (amount) => ({ accountId: ACCOUNT_ID, beneficiaryId: BENEFICIARY_ID, asset: 'USDC', amount }), 201],
  ['/v1/transfers', 'amount', (amount) => ({ accountId: ACCOUNT_ID, beneficiaryId: BENEFICIARY_ID, asset: 'BTC', amount }), 201],
  ['/v1/quotes', 'fromAmount', (fromAmount) => ({ accountId: ACCOUNT_ID, fromAsset: 'ETH', toAsset: 'USDC', fromAmount }), 201],
  ['/v1/quotes', 'toAmount', (toAmount) => ({ accountId: ACCOUNT_ID, fromAsset: 'USDC', toAsset: 'USD', toAmount }), 201],
];

/** The largest amount each asset of the table above takes: 15 nines, then its scale in nines. */
const LARGEST: Readonly<Record<string, string>> = {
  ETH: `999999999999999.${'9'.repeat(18)}`,
  USD: '999999999999999.99',
  USDC: '999999999999999.999999',
  BTC: '999999999999999.99999999',
};

/*
 * Every amount field of every route is bounded at the gateway below 10^15, which every figure the
 * services derive from it fits in (numeric(38, 18) holds 20 digits before the point): the largest
 * amount is forwarded as sent, one more digit is 400 `invalid_request` naming the field, before any
 * service is asked. The ledger and the quote service are stand-ins here.
 */
describe('amount bounds at the gateway', () => {
  const routes = useStandInRoutes(queuePrefix, ['ledger', 'quote'], (name) => (name.startsWith('quotes.') ? QUOTE : TRANSACTION));
  const { sent, call, refused } = routes;

  it('covers every amount field the document describes, and each states its bound', async () => {
    interface Schema {
      properties?: Record<string, { pattern?: string; description?: string }>;
    }
    const document = (await routes.gateway.request('/openapi.json')).json<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
      components: { schemas: Record<string, Schema> };
    }>();
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((operation) => {
        const ref = operation.requestBody?.content['application/json']?.schema.$ref;
        const schema = ref ? document.components.schemas[ref.split('/').pop()!] : undefined;
        return Object.entries(schema?.properties ?? {})
          .filter(([, property]) => property.pattern === AMOUNT_PATTERN)
          .map(([field, property]) => {
            expect({ path, field, description: property.description }).toEqual({ path, field, description: expect.stringContaining(BOUND.replace('must have ', '')) });
            return `${path} ${field}`;
          });
      }),
    );
    expect(documented.sort()).toEqual(AMOUNT_FIELDS.map(([route, field]) => `${route} ${field}`).sort());
  });

  const assetOf = (body: Record<string, unknown>, field: string): string => String(field === 'toAmount' ? body.toAsset : (body.asset ?? body.fromAsset));

  it.each(AMOUNT_FIELDS)('POST %s forwards the largest %s there is, exactly as sent', async (route, field, body, success) => {
    const request = body('0');
    const largest = LARGEST[assetOf(request, field)]!;
    const answer = await call('POST', route, body(largest));
    expect(answer.status).toBe(success);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.payload[field]).toBe(largest);
  });

  it.each(AMOUNT_FIELDS)('POST %s refuses %s of 10^15 and more, naming the field, and asks no service', async (route, field, body) => {
    for (const amount of ['1000000000000000', '99999999999999999999.5', `0001${'0'.repeat(15)}.00`]) {
      expect(await refused('POST', route, body(amount))).toBe(`${field}: ${BOUND}`);
    }
  });
});
