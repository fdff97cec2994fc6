import { randomBytes, randomUUID } from 'node:crypto';
import { apiKeyHint, Big, generateApiKey, hashApiKey, newId, type OrganizationView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { inPool, send, type RequestOptions } from '../support/http-client';
import { startE2eStack, type Answer, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-ryw');

/** Iterations in flight at once: enough to overlap requests, few enough for a 2-core machine. */
const CONCURRENCY = 8;
/** Iterations of each "create, then use at once" loop (a timeout bounds the time, not this machine's speed). */
const ITERATIONS = 50;
const evmAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

/** One answer that was not what a client relying on the previous answer expects. */
interface Miss {
  iteration: number;
  step: string;
  status: number;
  body: string;
}

/*
 * What a 2xx answer names is usable in the very next request, with no pause: a new
 * organization's primary account (POST /v1/organizations, the sandbox sign-up, the operator
 * CLI), and every other resource the API creates (an account, a beneficiary, a webhook
 * endpoint, a quote, a payout, a transfer), each used by the request right after its creation.
 * Every app is its own process. Misses are collected, not thrown, so a failure shows how many.
 */
describe('read your writes (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let broker: CreatedOrganization;
  const pepper = readPlatformConfig().apiKeyPepper;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const post = (path: string, key: string, body?: unknown) => call(path, { method: 'POST', key, body, headers: { 'Idempotency-Key': randomUUID() } });
  const put = (path: string, key: string, body?: unknown) => call(path, { method: 'PUT', key, body, headers: { 'Idempotency-Key': randomUUID() } });

  /** Whether the answer has the status; a miss is recorded when it has not. */
  const expectStatus = (misses: Miss[], iteration: number, step: string, answer: Answer, status: number): boolean => {
    if (answer.status === status) return true;
    misses.push({ iteration, step, status: answer.status, body: answer.text.slice(0, 300) });
    return false;
  };

  /**
   * A key for a client organization, stored exactly as the operator's `key:create` stores one:
   * the CLI's own process start (about a second) would give the ledger all the time it needs,
   * hiding what this file is about.
   */
  async function issueKey(organizationId: string): Promise<string> {
    const apiKey = generateApiKey('sandbox');
    await prisma.apiKey.create({ data: { id: newId('apiKey'), organizationId, keyHash: hashApiKey(apiKey, pepper), hint: apiKeyHint(apiKey), environment: 'sandbox' } });
    return apiKey;
  }

  /** The new organization's primary account, used at once: a funding method, then a beneficiary on it. */
  async function usePrimaryAccount(misses: Miss[], iteration: number, apiKey: string, accountId: string): Promise<void> {
    const methods = await post('/v1/funding-methods', apiKey, { asset: 'USDC' });
    if (expectStatus(misses, iteration, 'POST /v1/funding-methods', methods, 200)) {
      const accounts = new Set(methods.json<{ data: Array<{ accountId: string }> }>().data.map((method) => method.accountId));
      if (accounts.size !== 1 || !accounts.has(accountId)) misses.push({ iteration, step: 'funding methods on the primary account', status: 200, body: methods.text.slice(0, 300) });
    }
    const beneficiary = await post('/v1/beneficiaries/crypto', apiKey, { accountId, nickname: 'Wallet', chainName: 'ETHEREUM_SEPOLIA', address: evmAddress() });
    expectStatus(misses, iteration, 'POST /v1/beneficiaries/crypto', beneficiary, 201);
  }

  /** POST /v1/organizations, then the client's primary account used with the client's key. */
  async function clientThenUse(misses: Miss[], iteration: number): Promise<void> {
    const created = await post('/v1/organizations', broker.apiKey, { name: `RYW client ${iteration}`, entityType: 'BUSINESS', country: 'DE' });
    if (!expectStatus(misses, iteration, 'POST /v1/organizations', created, 201)) return;
    const client = created.json<OrganizationView>();
    await usePrimaryAccount(misses, iteration, await issueKey(client.organizationId), client.primaryAccountId);
  }

  /** The sandbox sign-up (an invite, then its acceptance), then the new key used on the new primary account. */
  async function signUpThenUse(misses: Miss[], iteration: number): Promise<{ organization: OrganizationView; apiKey: string } | undefined> {
    const email = `ryw-${randomUUID().slice(0, 8)}@example.com`;
    const invite = await post('/v1/referral-invites', broker.apiKey, { email });
    if (!expectStatus(misses, iteration, 'POST /v1/referral-invites', invite, 201)) return undefined;
    const { referralInviteId } = invite.json<{ referralInviteId: string }>();
    const accepted = await post(`/v1/sandbox/referral-invites/${referralInviteId}/accept`, broker.apiKey, { email, name: `RYW sign-up ${iteration}` });
    if (!expectStatus(misses, iteration, 'POST /v1/sandbox/referral-invites/{id}/accept', accepted, 201)) return undefined;
    const signedUp = accepted.json<{ organization: OrganizationView; apiKey: string }>();
    await usePrimaryAccount(misses, iteration, signedUp.apiKey, signedUp.organization.primaryAccountId);
    return signedUp;
  }

  /** An approved root organization from the operator CLI, its USDC funded through the faucet. */
  async function funded(label: string, amount: string): Promise<CreatedOrganization> {
    const org = await e2e.createOrganization(label);
    // No wait for the account: the CLI printed only once it was open.
    expect((await post('/v1/funding-methods', org.apiKey, { asset: 'USDC' })).status).toBe(200);
    expect((await post('/v1/transactions/faucet', org.apiKey, { accountId: org.accountId, asset: 'USDC', amount, chainName: 'ETHEREUM_SEPOLIA' })).status).toBe(200);
    return org;
  }

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix, { RATE_LIMIT_PER_MINUTE: '100000', RATES_DRIFT_BPS: '0' });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-read-your-writes' });
    broker = await e2e.createOrganization('e2e ryw broker');
  }, 180000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  // That the organization service answers only once the ledger was asked to open the account is
  // apps/organization-service/test/organization-service.spec.ts's; here, that the real ledger and
  // gateway make it usable at once, over enough iterations to overlap them.
  it(`POST /v1/organizations, then the client’s primary account at once: ${ITERATIONS} iterations, no pause, no miss`, async () => {
    const misses: Miss[] = [];
    await inPool(ITERATIONS, CONCURRENCY, (iteration) => clientThenUse(misses, iteration));
    expect(misses).toEqual([]);
  }, 300000);

  it('the same while a faucet load runs on another organization', async () => {
    const faucetOrg = await funded('e2e ryw faucet', '1');
    let running = true;
    const faucetAnswers: number[] = [];
    // Bounded: it runs until the iterations are done and it has made 20 credits, 400 at most.
    const load = inPool(2, 2, async () => {
      while ((running || faucetAnswers.length < 20) && faucetAnswers.length < 400) {
        const credited = await post('/v1/transactions/faucet', faucetOrg.apiKey, { accountId: faucetOrg.accountId, asset: 'USDC', amount: '0.01', chainName: 'ETHEREUM_SEPOLIA' });
        faucetAnswers.push(credited.status);
      }
    });
    const misses: Miss[] = [];
    try {
      // The iterations start once the load is under way, so they run beside it.
      await eventually(async () => (faucetAnswers.length > 0 ? true : undefined), 60000, 20);
      await inPool(ITERATIONS, CONCURRENCY, (iteration) => clientThenUse(misses, iteration));
    } finally {
      running = false;
      await load;
    }
    expect(misses).toEqual([]);
    // The load was served.
    expect(faucetAnswers.length).toBeGreaterThanOrEqual(20);
    expect(faucetAnswers.filter((status) => status !== 200)).toEqual([]);
  }, 300000);

  it(`the sandbox sign-up, then its new key on its new primary account at once: ${ITERATIONS} iterations, no miss`, async () => {
    const misses: Miss[] = [];
    const signedUp = await inPool(ITERATIONS, CONCURRENCY, (iteration) => signUpThenUse(misses, iteration));
    expect(misses).toEqual([]);
    expect(signedUp.every((entry) => entry?.organization.referrerOrganizationId === broker.organizationId)).toBe(true);
  }, 300000);

  it('the operator CLI’s org:create prints an account that its key uses at once', async () => {
    const misses: Miss[] = [];
    for (let iteration = 0; iteration < 3; iteration += 1) {
      const created = await e2e.createOrganization(`e2e ryw cli ${iteration}`);
      await usePrimaryAccount(misses, iteration, created.apiKey, created.accountId);
      expectStatus(misses, iteration, 'GET /v1/accounts/{id}', await call(`/v1/accounts/${created.accountId}`, { key: created.apiKey }), 200);
    }
    expect(misses).toEqual([]);
  }, 180000);

  // Without the ledger, organizations.create fails as the ledger being unavailable (a 503 naming
  // it) and its retry under the same command id answers the organization it stored, whose account
  // then opens: apps/organization-service/test/organization-service.spec.ts (stopping a process
  // of the shared stack is not this project's to do).

  describe('every other resource, used by the very next request', () => {
    const RESOURCE_ITERATIONS = 8;
    let sender: CreatedOrganization;

    beforeAll(async () => {
      sender = await funded('e2e ryw sender', '100000');
      expect((await post('/v1/servicenet/enable', sender.apiKey)).status).toBe(200);
    }, 180000);

    it('a new account: read, given a funding method and a beneficiary', async () => {
      const misses: Miss[] = [];
      await inPool(RESOURCE_ITERATIONS, CONCURRENCY, async (iteration) => {
        const opened = await post('/v1/accounts', sender.apiKey, { name: `RYW account ${iteration}` });
        if (!expectStatus(misses, iteration, 'POST /v1/accounts', opened, 201)) return;
        const { accountId } = opened.json<{ accountId: string }>();
        expectStatus(misses, iteration, 'GET /v1/accounts/{id}', await call(`/v1/accounts/${accountId}`, { key: sender.apiKey }), 200);
        expectStatus(misses, iteration, 'POST /v1/funding-methods on it', await post('/v1/funding-methods', sender.apiKey, { asset: 'USDC', accountId }), 200);
        const beneficiary = await post('/v1/beneficiaries/crypto', sender.apiKey, { accountId, nickname: 'Wallet', chainName: 'ETHEREUM_SEPOLIA', address: evmAddress() });
        expectStatus(misses, iteration, 'POST /v1/beneficiaries/crypto on it', beneficiary, 201);
      });
      expect(misses).toEqual([]);
    }, 180000);

    it('a new beneficiary: read, and paid out to; the new payout read', async () => {
      const misses: Miss[] = [];
      await inPool(RESOURCE_ITERATIONS, CONCURRENCY, async (iteration) => {
        const created = await post('/v1/beneficiaries/crypto', sender.apiKey, { accountId: sender.accountId, nickname: 'Wallet', chainName: 'ETHEREUM_SEPOLIA', address: evmAddress() });
        if (!expectStatus(misses, iteration, 'POST /v1/beneficiaries/crypto', created, 201)) return;
        const { beneficiaryId } = created.json<{ beneficiaryId: string }>();
        expectStatus(misses, iteration, 'GET /v1/beneficiaries/{id}', await call(`/v1/beneficiaries/${beneficiaryId}`, { key: sender.apiKey }), 200);
        const payout = await post('/v1/payouts/crypto', sender.apiKey, { accountId: sender.accountId, beneficiaryId, asset: 'USDC', amount: '1' });
        if (!expectStatus(misses, iteration, 'POST /v1/payouts/crypto', payout, 201)) return;
        const { transactionId } = payout.json<{ transactionId: string }>();
        expectStatus(misses, iteration, 'GET /v1/transactions/{id} (payout)', await call(`/v1/transactions/${transactionId}`, { key: sender.apiKey }), 200);
      });
      expect(misses).toEqual([]);
    }, 180000);

    it('a new webhook endpoint: read, its secret read, and deleted', async () => {
      // The address is public (registration refuses any other here), so nothing may ever be
      // delivered to it: the endpoints belong to an organization that moves no money, listen
      // to transaction events only, and are deleted before the iteration ends.
      const quiet = await e2e.createOrganization('e2e ryw hooks');
      const misses: Miss[] = [];
      await inPool(RESOURCE_ITERATIONS, CONCURRENCY, async (iteration) => {
        const created = await post('/v1/webhooks/endpoints', quiet.apiKey, { url: `https://93.184.216.34/hooks/ryw-${iteration}`, eventTypes: ['transaction.status.updated'] });
        if (!expectStatus(misses, iteration, 'POST /v1/webhooks/endpoints', created, 201)) return;
        const { id } = created.json<{ id: string }>();
        expectStatus(misses, iteration, 'GET /v1/webhooks/endpoints/{id}', await call(`/v1/webhooks/endpoints/${id}`, { key: quiet.apiKey }), 200);
        expectStatus(misses, iteration, 'GET /v1/webhooks/endpoints/{id}/secret', await call(`/v1/webhooks/endpoints/${id}/secret`, { key: quiet.apiKey }), 200);
        expectStatus(misses, iteration, 'DELETE /v1/webhooks/endpoints/{id}', await call(`/v1/webhooks/endpoints/${id}`, { method: 'DELETE', key: quiet.apiKey, headers: { 'Idempotency-Key': randomUUID() } }), 200);
      });
      expect(misses).toEqual([]);
    }, 180000);

    it('a new quote: read and executed; its trade read', async () => {
      const misses: Miss[] = [];
      await inPool(RESOURCE_ITERATIONS, CONCURRENCY, async (iteration) => {
        const quoted = await post('/v1/quotes', sender.apiKey, { accountId: sender.accountId, fromAsset: 'USDC', toAsset: 'USD', fromAmount: '2' });
        if (!expectStatus(misses, iteration, 'POST /v1/quotes', quoted, 201)) return;
        const { quoteId } = quoted.json<{ quoteId: string }>();
        expectStatus(misses, iteration, 'GET /v1/quotes/{id}', await call(`/v1/quotes/${quoteId}`, { key: sender.apiKey }), 200);
        const executed = await post(`/v1/quotes/${quoteId}/execute`, sender.apiKey);
        if (!expectStatus(misses, iteration, 'POST /v1/quotes/{id}/execute', executed, 200)) return;
        const { transactionId } = executed.json<{ transactionId: string }>();
        expectStatus(misses, iteration, 'GET /v1/transactions/{id} (trade)', await call(`/v1/transactions/${transactionId}`, { key: sender.apiKey }), 200);
      });
      expect(misses).toEqual([]);
    }, 180000);

    it('a transfer to an organization signed up a moment ago: the transfer read, the money on the receiver’s new account', async () => {
      const misses: Miss[] = [];
      await inPool(4, CONCURRENCY, async (iteration) => {
        const receiver = await signUpThenUse(misses, 1000 + iteration);
        if (!receiver) return;
        expectStatus(misses, iteration, 'POST /v1/servicenet/enable', await post('/v1/servicenet/enable', receiver.apiKey), 200);
        const handle = `ryw-${randomBytes(5).toString('hex')}`;
        expectStatus(misses, iteration, 'PUT /v1/servicenet/handle', await put('/v1/servicenet/handle', receiver.apiKey, { handle }), 200);
        const beneficiary = await post('/v1/beneficiaries/servicenet', sender.apiKey, { accountId: sender.accountId, nickname: `To ${handle}`, handle });
        if (!expectStatus(misses, iteration, 'POST /v1/beneficiaries/servicenet', beneficiary, 201)) return;
        const { beneficiaryId } = beneficiary.json<{ beneficiaryId: string }>();
        const transfer = await post('/v1/transfers', sender.apiKey, { accountId: sender.accountId, beneficiaryId, asset: 'USDC', amount: '3' });
        if (!expectStatus(misses, iteration, 'POST /v1/transfers', transfer, 201)) return;
        const { transactionId } = transfer.json<{ transactionId: string }>();
        expectStatus(misses, iteration, 'GET /v1/transactions/{id} (transfer)', await call(`/v1/transactions/${transactionId}`, { key: sender.apiKey }), 200);
        const account = await call(`/v1/accounts/${receiver.organization.primaryAccountId}`, { key: receiver.apiKey });
        if (expectStatus(misses, iteration, 'GET /v1/accounts/{id} (receiver)', account, 200)) {
          const usdc = account.json<{ balances: Array<{ asset: string; amount: string }> }>().balances.find((balance) => balance.asset === 'USDC')?.amount;
          if (usdc === undefined || !new Big(usdc).eq(3)) misses.push({ iteration, step: 'the receiver’s USDC balance', status: 200, body: account.text.slice(0, 300) });
        }
      });
      expect(misses).toEqual([]);
    }, 180000);
  });
});
