import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Big } from '@pfs/contracts';
import { createPfsClient, ok, paginate, PfsApiError, verifyWebhook, type PfsClient } from '@pfs/client';
import { eventually, isolateQueues } from '@pfs/testing';
import { expectDocumented } from '../support/openapi-response-validator';
import { startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';
import { WebhookReceiver } from './support/webhook-receiver';

const queuePrefix = isolateQueues('gw-e2e-client');

const evmAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

/**
 * The fetch under the client: every answer is held to the served OpenAPI document, as every
 * other end-to-end request is (http-client.ts).
 */
function documentedFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const url = new URL(request.url);
    await expectDocumented(baseUrl, { method: request.method, url: `${url.pathname}${url.search}`, status: response.status, headers: response.headers, text: await response.clone().text() });
    return response;
  };
}

/*
 * @pfs/client against the running stack: one flow per resource through the typed client that
 * partners install, with its defaults (an Idempotency-Key on every mutation, typed errors, the
 * X-Next-Cursor walk, webhook verification). The raw requests of the other files test what a
 * typed client cannot send (malformed input).
 */
describe('@pfs/client end to end', () => {
  let e2e: E2eStack;
  let broker: CreatedOrganization;
  let pfs: PfsClient;
  const receivers: WebhookReceiver[] = [];
  const client = (apiKey: string) => createPfsClient({ baseUrl: e2e.baseUrl, apiKey, fetch: documentedFetch(e2e.baseUrl) });

  /** USDC activated on an organization's account, as a partner does once before receiving it. */
  const activated = (api: PfsClient, accountId: string) => ok(api.api.POST('/v1/funding-methods', { body: { asset: 'USDC', accountId } }));
  /** A faucet credit of USDC; its transaction id. */
  async function funded(api: PfsClient, accountId: string, amount: string): Promise<string> {
    const credit = await ok(api.api.POST('/v1/transactions/faucet', { body: { accountId, asset: 'USDC', amount, chainName: 'ETHEREUM_SEPOLIA' } }));
    return credit.transactionId;
  }

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    broker = await e2e.createOrganization('e2e client broker');
    pfs = client(broker.apiKey);
    await activated(pfs, broker.accountId);
  }, 90000);

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await e2e?.stop();
  });

  it('organizations: signs a customer up in the sandbox, creates and approves a client organization, reads it and walks the list', async () => {
    const email = `client-${randomUUID().slice(0, 8)}@example.com`;
    const invite = await ok(pfs.api.POST('/v1/referral-invites', { body: { email } }));
    const signUp = await ok(pfs.api.POST('/v1/sandbox/referral-invites/{referralInviteId}/accept', { params: { path: { referralInviteId: invite.referralInviteId } }, body: { email, name: 'Client sign-up' } }));
    expect(signUp.organization.referrerOrganizationId).toBe(broker.organizationId);
    const customer = await ok(client(signUp.apiKey).api.GET('/v1/accounts/{accountId}', { params: { path: { accountId: signUp.organization.primaryAccountId as string } } }));
    expect(customer.isPrimary).toBe(true);

    const created = await ok(pfs.api.POST('/v1/organizations', { body: { name: `Client ${randomUUID().slice(0, 8)}`, entityType: 'BUSINESS', country: 'DE' } }));
    const approved = await ok(
      pfs.api.POST('/v1/sandbox/organizations/{organizationId}/verification', { params: { path: { organizationId: created.organizationId } }, body: { status: 'APPROVED' } }),
    );
    expect(approved.verificationStatus).toBe('APPROVED');
    const read = await ok(pfs.api.GET('/v1/organizations/{organizationId}', { params: { path: { organizationId: created.organizationId } } }));
    expect(read).toMatchObject({ organizationId: created.organizationId, parentOrganizationId: broker.organizationId });

    const walked: string[] = [];
    for await (const organization of paginate((cursor) => pfs.api.GET('/v1/organizations', { params: { query: { limit: 1, ...(cursor ? { cursor } : {}) } } }))) {
      walked.push(organization.organizationId);
    }
    expect(walked).toContain(created.organizationId);
    expect(new Set(walked).size).toBe(walked.length);
  });

  it('accounts, funding methods and the faucet: activates USDC, credits it and reads the balance and the transaction', async () => {
    const usdc = async () => {
      const account = await ok(pfs.api.GET('/v1/accounts/{accountId}', { params: { path: { accountId: broker.accountId } } }));
      return new Big(account.balances.find((balance) => balance.asset === 'USDC')?.amount ?? '0');
    };
    const before = await usdc();
    const transactionId = await funded(pfs, broker.accountId, '25');
    const transaction = await ok(pfs.api.GET('/v1/transactions/{transactionId}', { params: { path: { transactionId } } }));
    expect(transaction).toMatchObject({ type: 'CRYPTO_PAYIN', asset: 'USDC', accountId: broker.accountId, amount: '25.000000' });
    expect((await usdc()).minus(before).toFixed()).toBe('25');
  });

  it('quotes: quotes USDC for USD and executes it as a trade', async () => {
    await funded(pfs, broker.accountId, '10');
    const quote = await ok(pfs.api.POST('/v1/quotes', { body: { accountId: broker.accountId, fromAsset: 'USDC', toAsset: 'USD', fromAmount: '5' } }));
    expect(quote.status).toBe('PENDING');
    const executed = await ok(pfs.api.POST('/v1/quotes/{quoteId}/execute', { params: { path: { quoteId: quote.quoteId } } }));
    expect(executed.quoteId).toBe(quote.quoteId);
    const trade = await ok(pfs.api.GET('/v1/transactions/{transactionId}', { params: { path: { transactionId: executed.transactionId } } }));
    expect(trade.type).toBe('TRADE');
  });

  it('beneficiaries and payouts: registers a wallet and pays out to it', async () => {
    await funded(pfs, broker.accountId, '10');
    const wallet = await ok(pfs.api.POST('/v1/beneficiaries/crypto', { body: { accountId: broker.accountId, nickname: 'Treasury wallet', chainName: 'ETHEREUM_SEPOLIA', address: evmAddress() } }));
    const read = await ok(pfs.api.GET('/v1/beneficiaries/{beneficiaryId}', { params: { path: { beneficiaryId: wallet.beneficiaryId } } }));
    expect(read.status).toBe('ACTIVE');
    const payout = await ok(pfs.api.POST('/v1/payouts/crypto', { body: { accountId: broker.accountId, beneficiaryId: wallet.beneficiaryId, asset: 'USDC', amount: '1' } }));
    expect(payout).toMatchObject({ type: 'CRYPTO_PAYOUT', beneficiaryId: wallet.beneficiaryId });
  });

  it('transfers: sends money to another organization on servicenet', async () => {
    const payee = await e2e.createOrganization('e2e client payee');
    const payeeClient = client(payee.apiKey);
    await ok(pfs.api.POST('/v1/servicenet/enable'));
    await ok(payeeClient.api.POST('/v1/servicenet/enable'));
    const handle = `client-${randomBytes(4).toString('hex')}`;
    await ok(payeeClient.api.PUT('/v1/servicenet/handle', { body: { handle } }));
    await funded(pfs, broker.accountId, '5');
    const beneficiary = await ok(pfs.api.POST('/v1/beneficiaries/servicenet', { body: { accountId: broker.accountId, nickname: 'Payee', handle } }));
    const transfer = await ok(pfs.api.POST('/v1/transfers', { body: { accountId: broker.accountId, beneficiaryId: beneficiary.beneficiaryId, asset: 'USDC', amount: '2' } }));
    expect(transfer).toMatchObject({ type: 'INTERNAL_TRANSFER', counterpartyOrganizationId: payee.organizationId });
  });

  it('webhooks: registers a local receiver, and the event it receives verifies with the endpoint secret', async () => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const merchant = await e2e.createOrganization('e2e client webhooks');
    const api = client(merchant.apiKey);
    await activated(api, merchant.accountId);
    const endpoint = await ok(api.api.POST('/v1/webhooks/endpoints', { body: { url: receiver.url(), eventTypes: ['transaction.status.updated'] } }));
    const { key: secret } = await ok(api.api.GET('/v1/webhooks/endpoints/{endpointId}/secret', { params: { path: { endpointId: endpoint.id } } }));
    const transactionId = await funded(api, merchant.accountId, '3');

    const delivered = await eventually(async () => receiver.received.find((received) => received.body.includes(transactionId)), 30000, 100);
    const event = verifyWebhook<{ transaction_id: string }>(secret, delivered.body, delivered.headers as Record<string, string>);
    expect(event).toMatchObject({ type: 'transaction.status.updated', data: { transaction_id: transactionId } });
    expect(() => verifyWebhook(secret, delivered.body.replace(transactionId, 'txn_forged'), delivered.headers as Record<string, string>)).toThrow();
  });

  it('the quickstart example runs its whole journey against the stack', async () => {
    const example = resolve(__dirname, '../../../../libs/client/dist/examples/quickstart.js');
    const { stdout } = await promisify(execFile)(process.execPath, [example], { env: { ...process.env, PFS_BASE_URL: e2e.baseUrl, PFS_API_KEY: broker.apiKey }, timeout: 60000 });
    expect(stdout).toMatch(/^signed up org_[0-9a-f]{32} \(account acct_[0-9a-f]{32}\), approved$/m);
    expect(stdout).toMatch(/^verified transaction\.status\.updated for txn_[0-9a-f]{32} \(COMPLETED\)$/m);
    expect(stdout.trim().split('\n').at(-1)).toBe('quickstart complete');
  }, 90000);

  it('errors and idempotency: a typed error with the envelope, and a mutation replayed under its key', async () => {
    const missing = await pfs.api.GET('/v1/accounts/{accountId}', { params: { path: { accountId: `acct_${'0'.repeat(32)}` } } }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(PfsApiError);
    expect(missing).toMatchObject({ status: 404, code: 'account_not_found', requestId: expect.stringMatching(/^req_[0-9a-f]{32}$/) });

    const key = randomUUID();
    const body = { name: `Once ${randomUUID().slice(0, 8)}`, entityType: 'INDIVIDUAL' as const, country: 'FR' };
    const first = await pfs.api.POST('/v1/organizations', { body, params: { header: { 'Idempotency-Key': key } } });
    const again = await pfs.api.POST('/v1/organizations', { body, params: { header: { 'Idempotency-Key': key } } });
    expect(again.data?.organizationId).toBe(first.data?.organizationId);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });
});
