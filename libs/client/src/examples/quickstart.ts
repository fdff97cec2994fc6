/* eslint-disable no-console -- an example that talks to its reader */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPfsClient, ok, PfsApiError, verifyWebhook } from '../index';

/*
 * `pnpm example:quickstart`: the whole sandbox journey of a partner, with @pfs/client, against a
 * running stack (`pnpm run stack` prints its base URL and a sandbox key):
 *   1. signs a customer up in the sandbox (a referral invite, accepted) and approves it;
 *   2. starts a local webhook receiver and registers it as the customer's endpoint;
 *   3. activates USDC and funds the account through the faucet;
 *   4. quotes USDC for USD and executes the trade;
 *   5. waits for the signed events and verifies each with the endpoint's secret.
 * PFS_BASE_URL (default http://127.0.0.1:3000) and PFS_API_KEY (the printed sandbox key) say where.
 */
const baseUrl = process.env.PFS_BASE_URL ?? 'http://127.0.0.1:3000';
const apiKey = process.env.PFS_API_KEY;

interface Delivery {
  body: string;
  headers: IncomingHttpHeaders;
}

async function main(): Promise<void> {
  if (!apiKey) throw new Error('set PFS_API_KEY to a sandbox key: `pnpm run stack` prints one (Sandbox key sk_test_…)');
  const partner = createPfsClient({ baseUrl, apiKey });

  // 1. A customer signs up through the partner's referral link (the sandbox accepts it at once).
  const email = `quickstart-${randomUUID().slice(0, 8)}@example.com`;
  const invite = await ok(partner.api.POST('/v1/referral-invites', { body: { email } }));
  const signUp = await ok(partner.api.POST('/v1/sandbox/referral-invites/{referralInviteId}/accept', { params: { path: { referralInviteId: invite.referralInviteId } }, body: { email, name: 'Quickstart customer' } }));
  const customer = createPfsClient({ baseUrl, apiKey: signUp.apiKey });
  const { organizationId } = signUp.organization;
  const accountId = signUp.organization.primaryAccountId as string;
  await ok(customer.api.POST('/v1/sandbox/organizations/{organizationId}/verification', { params: { path: { organizationId } }, body: { status: 'APPROVED' } }));
  console.log(`signed up ${organizationId} (account ${accountId}), approved`);

  // 2. A webhook receiver on this machine, registered for the customer's transaction events.
  const deliveries: Delivery[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const endpoint = await ok(customer.api.POST('/v1/webhooks/endpoints', { body: { url, eventTypes: ['transaction.status.updated'], description: 'quickstart receiver' } }));
  const { key: secret } = await ok(customer.api.GET('/v1/webhooks/endpoints/{endpointId}/secret', { params: { path: { endpointId: endpoint.id } } }));
  console.log(`webhook endpoint ${endpoint.id} → ${url}`);

  try {
    // 3. Funds: USDC activated on the account, then 100 USDC from the sandbox faucet.
    await ok(customer.api.POST('/v1/funding-methods', { body: { asset: 'USDC', accountId } }));
    const credit = await ok(customer.api.POST('/v1/transactions/faucet', { body: { accountId, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' } }));
    console.log(`faucet credit ${credit.transactionId}: ${credit.amount} ${credit.asset}, ${credit.status}`);

    // 4. A quote, valid for 5 minutes, executed as a trade.
    const quote = await ok(customer.api.POST('/v1/quotes', { body: { accountId, fromAsset: 'USDC', toAsset: 'USD', fromAmount: '40' } }));
    console.log(`quote ${quote.quoteId}: ${quote.fromAmount} ${quote.fromAsset} → ${quote.toAmount} ${quote.toAsset} at ${quote.appliedRate}`);
    const trade = await ok(customer.api.POST('/v1/quotes/{quoteId}/execute', { params: { path: { quoteId: quote.quoteId } } }));
    console.log(`executed: trade ${trade.transactionId}`);
    const account = await ok(customer.api.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } }));
    console.log(`balances: ${account.balances.map((balance) => `${balance.amount} ${balance.asset}`).join(', ')}`);

    // 5. Each transaction's event, verified as a partner's server must before trusting it.
    for (const transactionId of [credit.transactionId, trade.transactionId]) {
      const delivery = await waitFor(() => deliveries.find((candidate) => candidate.body.includes(transactionId)), 30000);
      const event = verifyWebhook<{ transaction_id: string; status: string }>(secret, delivery.body, delivery.headers as Record<string, string>);
      console.log(`verified ${event.type} for ${event.data.transaction_id} (${event.data.status})`);
    }
    console.log('quickstart complete');
  } finally {
    receiver.close();
  }
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no webhook delivery within ${timeoutMs / 1000} s: is the stack running with WEBHOOK_ALLOW_INSECURE_URLS=true (run stack's default)?`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

main().catch((error: unknown) => {
  if (error instanceof PfsApiError) console.error(`${error.status} ${error.code}: ${error.message} (request ${error.requestId})`);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
