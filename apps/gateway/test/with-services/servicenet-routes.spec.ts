import { randomBytes } from 'node:crypto';
import type { TransactionView } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { expectError } from '../support/http-client';
import { useStandInRoutes } from '../support/stand-in-service';

const queuePrefix = isolateQueues('gw-servicenet-routes');

const ACCOUNT_ID = 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c';
const BENEFICIARY_ID = 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f';
const TRANSFER = { accountId: ACCOUNT_ID, beneficiaryId: BENEFICIARY_ID, asset: 'USDC', amount: '12.500000' };

/** What the stand-in ledger answers to `transfers.create`: the sender's side. */
const SENT: TransactionView = {
  object: 'transaction',
  transactionId: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e',
  type: 'INTERNAL_TRANSFER',
  status: 'COMPLETED',
  accountId: ACCOUNT_ID,
  amount: '12.500000',
  asset: 'USDC',
  chainName: null,
  beneficiaryId: BENEFICIARY_ID,
  quoteId: null,
  fee: null,
  feeAsset: null,
  counterpartyOrganizationId: 'org_5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a',
  reference: null,
  failureReason: null,
  destination: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
};

/*
 * The gateway’s half of the servicenet routes: /v1/servicenet against the real
 * organization service, POST /v1/transfers against a stand-in ledger (the real one in
 * e2e/servicenet.spec.ts), and what each refuses before asking, naming the field.
 */
describe('servicenet and transfer routes at the gateway', () => {
  const routes = useStandInRoutes(queuePrefix, 'ledger', () => SENT);
  const { sent, call, refused } = routes;

  describe('/v1/servicenet (organization service)', () => {
    it('GET answers the state while off; PUT handle is 403 until enabled; enable, claim, disable', async () => {
      const handle = `Routes-${randomBytes(4).toString('hex')}`;
      const before = await call('GET', '/v1/servicenet');
      expect(before.status).toBe(200);
      expect(before.json()).toEqual({ object: 'servicenet', enabled: false, handle: null, updatedAt: null });
      expectError(await call('PUT', '/v1/servicenet/handle', { handle }), 403, 'servicenet_not_enabled');

      const enabled = await call('POST', '/v1/servicenet/enable');
      expect(enabled.status).toBe(200);
      expect(enabled.json()).toMatchObject({ object: 'servicenet', enabled: true, handle: null });

      const claimed = await call('PUT', '/v1/servicenet/handle', { handle });
      expect(claimed.status).toBe(200);
      expect(claimed.json()).toMatchObject({ enabled: true, handle: handle.toLowerCase() });
      expect((await call('GET', '/v1/servicenet')).json()).toMatchObject({ enabled: true, handle: handle.toLowerCase() });

      const disabled = await call('POST', '/v1/servicenet/disable');
      expect(disabled.status).toBe(200);
      expect(disabled.json()).toMatchObject({ enabled: false, handle: handle.toLowerCase() });
      expect((await call('POST', '/v1/servicenet/disable')).json()).toMatchObject({ enabled: false });
      expect(sent).toEqual([]);
    });

    it.each([
      ['no handle', {}, /^handle: is required$/],
      ['a null handle', { handle: null }, /^handle: is required$/],
      ['a handle of 2 characters', { handle: 'ab' }, /^handle: must be 3 to 32 characters/],
      ['a handle of 33 characters', { handle: 'a'.repeat(33) }, /^handle: must be 3 to 32 characters/],
      ['a space', { handle: 'acme pay' }, /^handle: must be 3 to 32 characters/],
      ['a dot', { handle: 'acme.pay' }, /^handle: must be 3 to 32 characters/],
      ['a number', { handle: 12345 }, /^handle: must be 3 to 32 characters/],
      ['an unknown field', { handle: 'acme', name: 'x' }, /^name: is not a recognised parameter$/],
    ])('PUT handle with %s is 400 invalid_request naming the field', async (_label, body, message) => {
      expect(await refused('PUT', '/v1/servicenet/handle', body)).toMatch(message);
    });

    it('a query parameter on any servicenet route', async () => {
      expect(await refused('GET', '/v1/servicenet?expand=x')).toMatch(/^expand: is not a recognised parameter$/);
      expect(await refused('POST', '/v1/servicenet/enable?now=1')).toMatch(/^now: is not a recognised parameter$/);
      expect(await refused('POST', '/v1/servicenet/disable?now=1')).toMatch(/^now: is not a recognised parameter$/);
    });
  });

  describe('POST /v1/beneficiaries/servicenet: refused before the beneficiary service is asked', () => {
    const body = { accountId: ACCOUNT_ID, nickname: 'Globex', handle: 'globex' };
    it.each([
      ['no handle', { accountId: ACCOUNT_ID, nickname: 'Globex' }, /^handle: is required$/],
      ['no nickname', { accountId: ACCOUNT_ID, handle: 'globex' }, /^nickname: is required$/],
      ['a malformed accountId', { ...body, accountId: 'acct_nope' }, /^accountId: must be an account id/],
      ['a malformed handle', { ...body, handle: 'no way' }, /^handle: must be 3 to 32 characters/],
      ['a field of another beneficiary type', { ...body, chainName: 'ETHEREUM_SEPOLIA' }, /^chainName: is not a recognised parameter$/],
    ])('with %s', async (_label, request, message) => {
      expect(await refused('POST', '/v1/beneficiaries/servicenet', request)).toMatch(message);
    });
  });

  describe('POST /v1/transfers (stand-in ledger)', () => {
    it('201 with the sender’s transaction; the caller’s organization and a null reference forwarded', async () => {
      const answer = await call('POST', '/v1/transfers', TRANSFER);
      expect(answer.status).toBe(201);
      expect(answer.json()).toEqual(SENT);
      expect(sent).toEqual([{ name: 'transfers.create', payload: { ...TRANSFER, reference: null, organizationId: routes.org.organizationId } }]);
      sent.length = 0;
      expect((await call('POST', '/v1/transfers', { ...TRANSFER, reference: 'Invoice 7' })).status).toBe(201);
      expect(sent[0]?.payload).toMatchObject({ reference: 'Invoice 7' });
    });

    it('a retry with the same Idempotency-Key replays the 201 without a second command', async () => {
      const headers = { 'Idempotency-Key': `transfer-routes-${Date.now()}` };
      const first = await call('POST', '/v1/transfers', TRANSFER, { headers });
      const again = await call('POST', '/v1/transfers', TRANSFER, { headers });
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(sent).toHaveLength(1);
    });

    it.each([
      ['servicenet_not_enabled', 403],
      ['verification_required', 403],
      ['beneficiary_not_found', 404],
      ['account_not_found', 404],
      ['beneficiary_blocked', 409],
      ['insufficient_funds', 422],
      ['invalid_request', 400],
    ] as const)('the ledger’s %s is answered %i', async (code, status) => {
      routes.standIn.failWith = { code, message: `refused: ${code}` };
      expectError(await call('POST', '/v1/transfers', TRANSFER), status, code);
    });

    it.each(['accountId', 'beneficiaryId', 'asset', 'amount'])('a transfer without %s', async (field) => {
      const { [field as keyof typeof TRANSFER]: _left, ...body } = TRANSFER;
      expect(await refused('POST', '/v1/transfers', body)).toMatch(new RegExp(`^${field}: `));
    });

    it.each([
      ['a malformed accountId', { ...TRANSFER, accountId: 'acct_nope' }, /^accountId: must be an account id/],
      ['a malformed beneficiaryId', { ...TRANSFER, beneficiaryId: 'bene_NOPE' }, /^beneficiaryId: must be a beneficiary id/],
      ['a JSON number as amount', { ...TRANSFER, amount: 10 }, /^amount: must be a decimal string/],
      ['a negative amount', { ...TRANSFER, amount: '-1' }, /^amount: must be a decimal string/],
      ['a zero amount', { ...TRANSFER, amount: '0' }, /^amount: must be greater than zero$/],
      ['USDC with 7 decimals', { ...TRANSFER, amount: '1.0000001' }, /^amount: must have at most 6 decimal places for USDC$/],
      ['a blank reference', { ...TRANSFER, reference: '' }, /^reference: must be 1–140 printable characters$/],
      ['a reference with a control character', { ...TRANSFER, reference: 'a\nb' }, /^reference: must be 1–140 printable characters$/],
      ['an unknown field', { ...TRANSFER, fee: '1' }, /^fee: is not a recognised parameter$/],
    ])('a transfer with %s', async (_label, body, message) => {
      expect(await refused('POST', '/v1/transfers', body)).toMatch(message);
    });
  });
});
