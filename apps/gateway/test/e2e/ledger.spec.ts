import { randomUUID } from 'node:crypto';
import { Big } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { send, type RequestOptions } from '../support/http-client';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-ledger');

// Its tests start operator CLI processes (org:create, key:create): on a busy 2-core machine
// those alone can outlast jest's default 30 s.
jest.setTimeout(120_000);

interface Transaction {
  object: 'transaction';
  transactionId: string;
  type: string;
  status: string;
  accountId: string;
  amount: string;
  asset: string;
  chainName: string | null;
  fee: string | null;
  createdAt: string;
  updatedAt: string;
}
interface Page<T> {
  object: 'list';
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}
interface Entry {
  journalId: string;
  transactionId: string;
  asset: string;
  amount: string;
  balanceAfter: string;
}

/*
 * The ledger end to end, every app its own process: the faucet and its rules, the
 * transactions it leaves, the sandbox rails, statements, accounts and fees. After this file
 * the invariant check (ledger-invariants.setup.ts) reads the books of everything it did.
 */
describe('ledger (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let payer: CreatedOrganization;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const post = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method: 'POST', key, body, headers: { 'Idempotency-Key': randomUUID(), ...headers } });
  const faucet = (org: CreatedOrganization, body: Record<string, unknown> = {}) =>
    post('/v1/transactions/faucet', org.apiKey, { accountId: org.accountId, asset: 'USDC', amount: '25.5', chainName: 'ETHEREUM_SEPOLIA', ...body });
  const balances = async (org: CreatedOrganization) => (await call(`/v1/accounts/${org.accountId}`, { key: org.apiKey })).json<{ balances: unknown[] }>().balances;
  const primaryAccountOpened = (accountId: string) =>
    eventually(async () => (await prisma.ledgerAccount.findUnique({ where: { id: accountId }, select: { id: true } }))?.id);
  const statusEvents = (transactionId: string) =>
    prisma.ledgerOutboxEvent.findMany({
      where: { type: 'transaction.status.updated', payload: { path: ['data', 'transaction_id'], equals: transactionId } },
      orderBy: { createdAt: 'asc' },
    });

  /** A root organization, approved, with USDC activated on its primary account. */
  async function funded(label: string): Promise<CreatedOrganization> {
    const org = await e2e.createOrganization(label);
    await primaryAccountOpened(org.accountId);
    expect((await post('/v1/funding-methods', org.apiKey, { asset: 'USDC' })).status).toBe(200);
    return org;
  }

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-ledger' });
    payer = await funded('e2e ledger payer');
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  describe('POST /v1/transactions/faucet', () => {
    it('credits at once: a COMPLETED CRYPTO_PAYIN, the balance in real time, one event EXPECTED → COMPLETED for the receiver', async () => {
      const answer = await faucet(payer);
      expect(answer.status).toBe(200);
      const transaction = answer.json<Transaction>();
      expect(transaction).toMatchObject({
        object: 'transaction',
        type: 'CRYPTO_PAYIN',
        status: 'COMPLETED',
        accountId: payer.accountId,
        amount: '25.500000',
        asset: 'USDC',
        chainName: 'ETHEREUM_SEPOLIA',
      });
      expect(await balances(payer)).toEqual([{ object: 'balance', asset: 'USDC', amount: '25.500000' }]);
      const [event, ...more] = await statusEvents(transaction.transactionId);
      expect(more).toEqual([]);
      expect(event?.payload).toMatchObject({
        data: {
          object: 'transaction',
          transaction_id: transaction.transactionId,
          transaction_type: 'CRYPTO_PAYIN',
          status: 'COMPLETED',
          previous_status: 'EXPECTED',
          account_id: payer.accountId,
          organization_id: payer.organizationId,
          role: 'RECEIVER',
        },
        audience: { organizationId: payer.organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
      });
      // Published after commit and handled by the webhook-delivery service (no endpoint: nothing written).
      await eventually(async () => (e2e.handledEvent('webhook-delivery-service', event!.id) ? true : undefined), 15000);
      expect((await call(`/v1/transactions/${transaction.transactionId}`, { key: payer.apiKey })).json()).toEqual(transaction);
    });

    it('refuses what the spec refuses, crediting nothing', async () => {
      const before = await balances(payer);
      const stranger = await funded('e2e ledger stranger');
      // The ledger's rules (an unknown account, the asset's scale, the message naming the
      // funding-methods call, a configured cap) are its use-case spec's
      // (credit-faucet.use-case.spec.ts); here, that each reaches the client as its status.
      expectError(await faucet(payer, { accountId: stranger.accountId }), 404, 'account_not_found');
      expectError(await faucet(payer, { asset: 'USDT' }), 400, 'invalid_request');
      expectError(await faucet(payer, { amount: 5 }), 400, 'invalid_request');
      expectError(await faucet(payer, { amount: '-1' }), 400, 'invalid_request');
      expectError(await faucet(payer, { chainName: 'BITCOIN' }), 400, 'invalid_request');
      expectError(await faucet(payer, { extra: true }), 400, 'invalid_request');
      // The stack's cap (the default unless the shared settings name one).
      const cap = e2e.env.FAUCET_MAX_AMOUNT ?? '1000000';
      const capped = expectError(await faucet(payer, { amount: `${cap}.000001` }), 400, 'invalid_request');
      expect(capped.message).toContain(`at most ${cap} USDC`);
      expect(await balances(payer)).toEqual(before);
    });

    it('needs a verification-approved organization (403 verification_required) and an address on the chain', async () => {
      const created = await post('/v1/organizations', payer.apiKey, { name: `Pending ${randomUUID().slice(0, 8)}`, entityType: 'BUSINESS', country: 'DE' });
      const client = created.json<{ organizationId: string; primaryAccountId: string }>();
      const { apiKey } = await e2e.cli<{ apiKey: string }>('key:create', '--org', client.organizationId);
      const pending: CreatedOrganization = { organizationId: client.organizationId, accountId: client.primaryAccountId, apiKey };
      await primaryAccountOpened(pending.accountId);
      await post('/v1/funding-methods', apiKey, { asset: 'ETH' });
      expectError(await faucet(pending, { asset: 'ETH', amount: '1' }), 403, 'verification_required');
      expect((await post(`/v1/sandbox/organizations/${pending.organizationId}/verification`, payer.apiKey, { status: 'APPROVED' })).status).toBe(200);
      // The wrong chain's message is the use-case spec's.
      expectError(await faucet(pending, { asset: 'ETH', amount: '1', chainName: 'SOLANA_DEVNET' }), 400, 'invalid_request');
      expect((await faucet(pending, { asset: 'ETH', amount: '1.000000000000000001' })).json<Transaction>().amount).toBe('1.000000000000000001');
    });

    it('tells the webhook fan-out whether the creator holds an ACTIVE LOA from its client', async () => {
      const created = await post('/v1/organizations', payer.apiKey, { name: `Client ${randomUUID().slice(0, 8)}`, entityType: 'INDIVIDUAL', country: 'FR' });
      const client = created.json<{ organizationId: string; primaryAccountId: string }>();
      await post(`/v1/sandbox/organizations/${client.organizationId}/verification`, payer.apiKey, { status: 'APPROVED' });
      const { apiKey } = await e2e.cli<{ apiKey: string }>('key:create', '--org', client.organizationId);
      const org: CreatedOrganization = { organizationId: client.organizationId, accountId: client.primaryAccountId, apiKey };
      await primaryAccountOpened(org.accountId);
      await post('/v1/funding-methods', apiKey, { asset: 'USDC' });
      const audience = async () => (await statusEvents((await faucet(org, { amount: '1' })).json<Transaction>().transactionId))[0]?.payload;
      expect(await audience()).toMatchObject({ audience: { organizationId: org.organizationId, parentOrganizationId: payer.organizationId, parentHoldsActiveLoa: false } });
      expect((await post('/v1/authorizations', apiKey, { granteeOrganizationId: payer.organizationId })).status).toBe(201);
      // The grant reaches the ledger's copy of the client's standing within the relay's lag.
      await eventually(async () => (await prisma.ledgerOrganizationStanding.findUnique({ where: { organizationId: org.organizationId } }))?.parentHoldsActiveLoa || undefined);
      expect(await audience()).toMatchObject({ audience: { parentOrganizationId: payer.organizationId, parentHoldsActiveLoa: true } });
    });
  });

  describe('the ledger’s copy of organization standings', () => {
    /**
     * How long a change may take to reach the faucet's decisions before the test calls it lost: far
     * past the relay's poll interval (its safety net), so only a copy that never takes the change
     * fails, never a busy machine. How fast it is (1 s at p99) is the bench's figure.
     */
    const LOST_AFTER_MS = 30_000;

    it('takes each verification change into the faucet’s decisions, and serves a just-approved organization at once', async () => {
      const org = await funded('e2e standing lag');
      const verify = (body: Record<string, unknown>) => post(`/v1/sandbox/organizations/${org.organizationId}/verification`, org.apiKey, body);
      for (let change = 0; change < 5; change += 1) {
        expect((await verify({ status: 'ON_HOLD', reason: `Check ${change}` })).status).toBe(200);
        const changed = performance.now();
        // Served while the copy still says APPROVED, refused once it has taken the change.
        for (let answer = await faucet(org, { amount: '0.01' }); answer.status !== 403; answer = await faucet(org, { amount: '0.01' })) {
          expect(answer.status).toBe(200);
          expect(performance.now() - changed).toBeLessThan(LOST_AFTER_MS);
        }
        // Approved again: the very next request is served, whatever the copy says yet.
        expect((await verify({ status: 'APPROVED' })).status).toBe(200);
        expect((await faucet(org, { amount: '0.01' })).status).toBe(200);
      }
    });
  });

  describe('transactions and the sandbox rails', () => {
    it('lists newest first with filters and pages; another organization’s transaction is 404', async () => {
      const org = await funded('e2e ledger lister');
      const ids: string[] = [];
      for (const amount of ['1', '2', '3']) ids.push((await faucet(org, { amount })).json<Transaction>().transactionId);
      const first = await call('/v1/transactions?limit=2', { key: org.apiKey });
      expect(first.status).toBe(200);
      const page = first.json<Page<Transaction>>();
      expect(page.data.map((t) => t.transactionId)).toEqual([ids[2], ids[1]]);
      const cursor = first.headers.get('x-next-cursor');
      expect(cursor).toBe(page.nextCursor);
      const second = (await call(`/v1/transactions?limit=2&cursor=${encodeURIComponent(cursor!)}`, { key: org.apiKey })).json<Page<Transaction>>();
      expect(second.data.map((t) => t.transactionId)).toEqual([ids[0]]);
      expectError(await call(`/v1/transactions?limit=2&status=COMPLETED&cursor=${encodeURIComponent(cursor!)}`, { key: org.apiKey }), 400, 'invalid_request');
      const filtered = (await call(`/v1/transactions?type=CRYPTO_PAYIN&status=COMPLETED&accountId=${org.accountId}&createdAfter=${encodeURIComponent(page.data[1]!.createdAt)}`, { key: org.apiKey })).json<Page<Transaction>>();
      expect(filtered.data.map((t) => t.transactionId)).toEqual([ids[2], ids[1]]);
      expect((await call('/v1/transactions?status=REFUNDED', { key: org.apiKey })).json<Page<Transaction>>().data).toEqual([]);
      expectError(await call('/v1/transactions?type=GIFT', { key: org.apiKey }), 400, 'invalid_request');
      expectError(await call('/v1/transactions?createdAfter=yesterday', { key: org.apiKey }), 400, 'invalid_request');
      expectError(await call(`/v1/transactions/${ids[0]}`, { key: payer.apiKey }), 404, 'transaction_not_found');
      expectError(await call('/v1/transactions/txn_nope', { key: org.apiKey }), 404, 'transaction_not_found');
    });

    it('refunds a faucet credit through the sandbox and refuses moves its status does not allow', async () => {
      const org = await funded('e2e ledger refund');
      const { transactionId } = (await faucet(org, { amount: '10' })).json<Transaction>();
      const lock = expectError(await post(`/v1/sandbox/transactions/${transactionId}/lock`, org.apiKey, undefined), 400, 'invalid_request');
      expect(lock.message).toContain('is COMPLETED');
      expectError(await post(`/v1/sandbox/transactions/${transactionId}/refund`, payer.apiKey, undefined), 404, 'transaction_not_found');
      expectError(await post(`/v1/sandbox/transactions/${transactionId}/explode`, org.apiKey, undefined), 404, 'not_found');
      const refunded = await post(`/v1/sandbox/transactions/${transactionId}/refund`, org.apiKey, undefined);
      expect(refunded.status).toBe(200);
      expect(refunded.json<Transaction>()).toMatchObject({ transactionId, status: 'REFUNDED' });
      expect(await balances(org)).toEqual([{ object: 'balance', asset: 'USDC', amount: '0.000000' }]);
      expect((await statusEvents(transactionId)).map((event) => (event.payload as { data: { status: string } }).data.status)).toEqual(['COMPLETED', 'REFUNDED']);
      expectError(await post(`/v1/sandbox/transactions/${transactionId}/refund`, org.apiKey, undefined), 400, 'invalid_request');
    });
  });

  describe('accounts and statements', () => {
    it('opens and renames further accounts; another organization’s is 404', async () => {
      const opened = await post('/v1/accounts', payer.apiKey, { name: 'Treasury', description: 'Float' });
      expect(opened.status).toBe(201);
      const account = opened.json<{ accountId: string; isPrimary: boolean; balances: unknown[] }>();
      expect(account).toMatchObject({ name: 'Treasury', description: 'Float', isPrimary: false, balances: [], status: 'ACTIVE' });
      const renamed = await call(`/v1/accounts/${account.accountId}`, { method: 'PATCH', key: payer.apiKey, body: { name: 'Treasury EUR' }, headers: { 'Idempotency-Key': randomUUID() } });
      expect(renamed.status).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Treasury EUR', description: 'Float' });
      expectError(await call(`/v1/accounts/${account.accountId}`, { method: 'PATCH', key: payer.apiKey, body: {}, headers: { 'Idempotency-Key': randomUUID() } }), 400, 'invalid_request');
      expectError(await post('/v1/accounts', payer.apiKey, { name: '' }), 400, 'invalid_request');
      const stranger = await e2e.createOrganization('e2e ledger account stranger');
      expectError(await call(`/v1/accounts/${account.accountId}`, { method: 'PATCH', key: stranger.apiKey, body: { name: 'Mine' }, headers: { 'Idempotency-Key': randomUUID() } }), 404, 'account_not_found');
      expectError(await call(`/v1/accounts/${account.accountId}/entries`, { key: stranger.apiKey }), 404, 'account_not_found');
      const listed = (await call('/v1/accounts', { key: payer.apiKey })).json<Page<{ accountId: string }>>().data.map((a) => a.accountId);
      expect(listed).toEqual(expect.arrayContaining([account.accountId, payer.accountId]));
    });

    it('gives a statement that reconciles line by line', async () => {
      const org = await funded('e2e ledger statement');
      await faucet(org, { amount: '3' });
      const { transactionId } = (await faucet(org, { amount: '4' })).json<Transaction>();
      await post(`/v1/sandbox/transactions/${transactionId}/refund`, org.apiKey, undefined);
      const answer = await call(`/v1/accounts/${org.accountId}/entries?limit=2`, { key: org.apiKey });
      expect(answer.status).toBe(200);
      const lines = answer.json<Page<Entry>>().data;
      const rest = (await call(`/v1/accounts/${org.accountId}/entries?cursor=${encodeURIComponent(answer.headers.get('x-next-cursor')!)}`, { key: org.apiKey })).json<Page<Entry>>().data;
      const all = [...lines, ...rest];
      expect(all.map((line) => [line.amount, line.balanceAfter])).toEqual([
        ['-4.000000', '3.000000'],
        ['4.000000', '7.000000'],
        ['3.000000', '3.000000'],
      ]);
      expect(all[0]!.transactionId).toBe(transactionId);
      expect(all[0]!.journalId).not.toBe(all[1]!.journalId);
      // Each line's balance is the next older line's plus its amount.
      for (let index = 0; index < all.length - 1; index++) {
        expect(new Big(all[index + 1]!.balanceAfter).plus(all[index]!.amount).eq(all[index]!.balanceAfter)).toBe(true);
      }
    });
  });

  describe('GET /v1/fees', () => {
    it('gives default pricing, and a client’s tier to its broker through Service-On-Behalf-Of', async () => {
      const own = await call('/v1/fees', { key: payer.apiKey });
      expect(own.status).toBe(200);
      expect(own.json()).toMatchObject({ object: 'fees', organizationId: payer.organizationId, tier: null, spreadBps: 100, referrerShareBps: 0 });
      expect(own.json<{ payoutFees: Array<{ rail: string; asset: string; amount: string }> }>().payoutFees).toEqual(
        expect.arrayContaining([{ object: 'payout_fee', rail: 'FIAT', asset: 'USD', amount: '1.00' }]),
      );
      const client = (await post('/v1/organizations', payer.apiKey, { name: `Vip ${randomUUID().slice(0, 8)}`, entityType: 'BUSINESS', country: 'NL' })).json<{ organizationId: string }>();
      const tier = await call('/v1/organizations/sub-org-tier', {
        method: 'PUT',
        key: payer.apiKey,
        body: { subOrgTierKey: 'vip' },
        headers: { 'Idempotency-Key': randomUUID(), 'Service-On-Behalf-Of': client.organizationId },
      });
      expect(tier.status).toBe(200);
      const fees = await call('/v1/fees', { key: payer.apiKey, headers: { 'Service-On-Behalf-Of': client.organizationId } });
      expect(fees.json()).toMatchObject({ organizationId: client.organizationId, tier: { key: 'vip' }, spreadBps: 30, referrerShareBps: 30 });
      const stranger = await e2e.createOrganization('e2e fees stranger');
      expectError(await call('/v1/fees', { key: stranger.apiKey, headers: { 'Service-On-Behalf-Of': client.organizationId } }), 403, 'forbidden');
    });
  });

  describe('in production', () => {
    let production: TestGateway;

    beforeAll(async () => {
      production = await startTestGateway({ env: { SERVICE_ENV: 'production', API_KEY_PEPPER: 'e2e-production-pepper', IDEMPOTENCY_REPLAY_KEY: 'e2e-production-replay-key' } });
    }, 60000);

    afterAll(async () => {
      await production?.close();
    });

    it('answers the faucet 404 not_found exactly like an unknown route and leaves it out of the document', async () => {
      const unknown = expectError(await production.request('/v1/transactions/nothing-here', { method: 'POST', body: {} }), 404, 'not_found');
      const body = { accountId: payer.accountId, asset: 'USDC', amount: '1', chainName: 'ETHEREUM_SEPOLIA' };
      for (const options of [{}, { key: payer.apiKey }] as RequestOptions[]) {
        expect(expectError(await production.request('/v1/transactions/faucet', { method: 'POST', body, ...options }), 404, 'not_found').message).toBe(unknown.message);
      }
      const document = (await production.request('/openapi.json')).json<{ paths: Record<string, unknown> }>();
      expect(document.paths['/v1/transactions/faucet']).toBeUndefined();
      expect(document.paths['/v1/transactions']).toBeDefined();
    });
  });
});
