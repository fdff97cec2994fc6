import { isolateQueues } from '@pfs/testing';
import { AMOUNT_PATTERN } from '../../src/validation/is-amount.decorator';
import { useStandInRoutes } from '../support/stand-in-service';
import { ACCOUNT_ID, BENEFICIARY_ID, PAYOUT_VIEW, QUOTE_VIEW } from '../support/stand-in-views';

const queuePrefix = isolateQueues('gw-amount-bounds');

const BOUND = 'must have at most 15 digits before the decimal point (less than 1000000000000000)';

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
  const routes = useStandInRoutes(queuePrefix, ['ledger', 'quote'], (name) => (name.startsWith('quotes.') ? QUOTE_VIEW : PAYOUT_VIEW));
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
