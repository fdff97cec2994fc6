import { isolateQueues } from '@pfs/testing';
import { expectError } from '../support/http-client';
import { useStandInRoutes } from '../support/stand-in-service';
import { ACCOUNT_ID, BENEFICIARY_ID, PAYOUT_VIEW as PAYOUT } from '../support/stand-in-views';

const queuePrefix = isolateQueues('gw-payout-routes');

const FIAT = { accountId: ACCOUNT_ID, beneficiaryId: BENEFICIARY_ID, asset: 'USD', amount: '25.00', reference: 'Invoice 117' };
const CRYPTO = { accountId: ACCOUNT_ID, beneficiaryId: BENEFICIARY_ID, asset: 'USDC', amount: '10.5' };

/*
 * The gateway's half of the payout routes, against a stand-in for the ledger (the real one is
 * exercised in e2e/payouts.spec.ts): what each route forwards as `payouts.create`, what it refuses
 * before asking (each refusal naming the field), and the status each of the ledger's codes gets.
 */
describe('payout routes at the gateway', () => {
  const routes = useStandInRoutes(queuePrefix, 'ledger', () => PAYOUT);
  const { sent, call, refused } = routes;

  describe('what is forwarded', () => {
    it('a fiat payout: 201 with the transaction, the rail, the reference and the caller’s organization', async () => {
      const answer = await call('POST', '/v1/payouts/fiat', FIAT);
      expect(answer.status).toBe(201);
      expect(answer.json()).toEqual(PAYOUT);
      expect(sent).toEqual([{ name: 'payouts.create', payload: { ...FIAT, rail: 'FIAT', organizationId: routes.org.organizationId } }]);
    });

    it('a fiat payout without a reference forwards null', async () => {
      const { reference: _left, ...body } = FIAT;
      expect((await call('POST', '/v1/payouts/fiat', body)).status).toBe(201);
      expect(sent[0]?.payload).toEqual({ ...body, reference: null, rail: 'FIAT', organizationId: routes.org.organizationId });
    });

    it('a crypto payout: the rail, no reference (the chain comes from the beneficiary)', async () => {
      expect((await call('POST', '/v1/payouts/crypto', CRYPTO)).status).toBe(201);
      expect(sent).toEqual([{ name: 'payouts.create', payload: { ...CRYPTO, reference: null, rail: 'CRYPTO', organizationId: routes.org.organizationId } }]);
    });

    it.each([
      ['beneficiary_not_found', 404],
      ['beneficiary_blocked', 409],
      ['insufficient_funds', 422],
      ['chain_send_failed', 502],
      ['verification_required', 403],
      ['account_not_found', 404],
      ['invalid_request', 400],
      ['service_not_enabled', 403],
    ] as const)('the ledger’s %s is answered %i', async (code, status) => {
      routes.standIn.failWith = { code, message: `refused: ${code}` };
      expectError(await call('POST', '/v1/payouts/crypto', CRYPTO), status, code);
    });

    it('a fiat payout refused in production (no payment rail connected) is 403 service_not_enabled', async () => {
      routes.standIn.failWith = { code: 'service_not_enabled', message: 'Fiat payouts are not enabled in this environment yet: no payment rail is connected. Nothing was held.' };
      expectError(await call('POST', '/v1/payouts/fiat', FIAT), 403, 'service_not_enabled');
    });
  });

  describe('what is refused before the ledger is asked', () => {
    it.each(['accountId', 'beneficiaryId', 'asset', 'amount'])('a payout without %s', async (field) => {
      const { [field as keyof typeof CRYPTO]: _left, ...body } = CRYPTO;
      expect(await refused('POST', '/v1/payouts/crypto', body)).toMatch(new RegExp(`^${field}: `));
      const { [field as keyof typeof FIAT]: _gone, ...fiat } = FIAT;
      expect(await refused('POST', '/v1/payouts/fiat', fiat)).toMatch(new RegExp(`^${field}: `));
    });

    it.each([
      ['a malformed accountId', { ...CRYPTO, accountId: 'acct_nope' }, /^accountId: must be an account id/],
      ['a malformed beneficiaryId', { ...CRYPTO, beneficiaryId: 'bene_NOPE' }, /^beneficiaryId: must be a beneficiary id/],
      ['a fiat asset', { ...CRYPTO, asset: 'USD' }, /^asset: must be one of USDC, USDT, BTC, ETH \(a crypto asset\)$/],
      ['an asset outside the catalog', { ...CRYPTO, asset: 'DOGE' }, /^asset: must be one of /],
      ['a JSON number as amount', { ...CRYPTO, amount: 10 }, /^amount: must be a decimal string/],
      ['a zero amount', { ...CRYPTO, amount: '0' }, /^amount: must be greater than zero$/],
      ['USDC with 7 decimals', { ...CRYPTO, amount: '1.0000001' }, /^amount: must have at most 6 decimal places for USDC$/],
      ['a reference (crypto payouts take none)', { ...CRYPTO, reference: 'x' }, /^reference: is not a recognised parameter$/],
    ])('a crypto payout with %s', async (_label, body, message) => {
      expect(await refused('POST', '/v1/payouts/crypto', body)).toMatch(message);
    });

    it.each([
      ['a crypto asset', { ...FIAT, asset: 'USDC' }, /^asset: must be one of USD, EUR \(a fiat asset\)$/],
      ['USD with 3 decimals', { ...FIAT, amount: '1.001' }, /^amount: must have at most 2 decimal places for USD$/],
      ['a negative amount', { ...FIAT, amount: '-25.00' }, /^amount: must be a decimal string/],
      ['an empty reference', { ...FIAT, reference: '' }, /^reference: must be 1–140 printable characters$/],
      ['a reference of 141 characters', { ...FIAT, reference: 'x'.repeat(141) }, /^reference: must be 1–140 printable characters$/],
      ['a control character in the reference', { ...FIAT, reference: 'a\u0007b' }, /^reference: must be 1–140 printable characters$/],
      ['a reference that is not a string', { ...FIAT, reference: 7 }, /^reference: must be 1–140 printable characters$/],
    ])('a fiat payout with %s', async (_label, body, message) => {
      expect(await refused('POST', '/v1/payouts/fiat', body)).toMatch(message);
    });
  });
});
