import { randomUUID } from 'node:crypto';
import type { WebhookDeliveryAttemptView } from '@pfs/contracts';
import type { PrismaClient } from '@pfs/persistence';
import { eventually } from '@pfs/testing';
import { send, type RequestOptions } from '../../support/http-client';
import type { CreatedOrganization, E2eStack } from './e2e-stack';
import { WebhookReceiver } from './webhook-receiver';

/**
 * The steps every webhook delivery file takes through the API: funded organizations, local
 * receivers registered as endpoints (their secrets kept for verification), faucet credits and
 * the endpoint's attempt log. `stack` and `prisma` are read when a step runs (files set them in
 * beforeAll); every receiver started is pushed to `receivers` for the file to stop.
 */
export function webhookFlows(stack: () => E2eStack, prisma: () => PrismaClient, receivers: WebhookReceiver[]) {
  const call = (path: string, options: RequestOptions = {}) => send(stack().baseUrl, path, options);
  const post = (path: string, key: string, body: unknown = {}) => call(path, { method: 'POST', key, body, headers: { 'Idempotency-Key': randomUUID() } });
  const patch = (path: string, key: string, body: unknown) => call(path, { method: 'PATCH', key, body, headers: { 'Idempotency-Key': randomUUID() } });
  const receiver = async () => {
    const started = await new WebhookReceiver().start();
    receivers.push(started);
    return started;
  };
  const faucet = async (org: CreatedOrganization, amount = '1') => {
    const answer = await post('/v1/transactions/faucet', org.apiKey, { accountId: org.accountId, asset: 'USDC', amount, chainName: 'ETHEREUM_SEPOLIA' });
    expect(answer.status).toBe(200);
    return answer.json<{ transactionId: string }>().transactionId;
  };
  const setVerification = async (actor: CreatedOrganization, organizationId: string, status: string) =>
    expect((await post(`/v1/sandbox/organizations/${organizationId}/verification`, actor.apiKey, { status, ...(status === 'ON_HOLD' ? { reason: 'Proof of address is unreadable' } : {}) })).status).toBe(200);
  /** Registers the receiver's URL for the organization; the receiver verifies with the endpoint's secret. */
  const endpoint = async (org: CreatedOrganization, target: WebhookReceiver, body: Record<string, unknown> = {}) => {
    const created = await post('/v1/webhooks/endpoints', org.apiKey, { url: target.url(), ...body });
    expect(created.status).toBe(201);
    const id = created.json<{ id: string }>().id;
    target.secrets.push((await call(`/v1/webhooks/endpoints/${id}/secret`, { key: org.apiKey })).json<{ key: string }>().key);
    return id;
  };
  const attempts = async (org: CreatedOrganization, endpointId: string) =>
    (await call(`/v1/webhooks/endpoints/${endpointId}/deliveries?limit=100`, { key: org.apiKey })).json<{ data: WebhookDeliveryAttemptView[] }>().data;
  /**
   * Waits until the ledger's copy of the organization's standing says its creator holds an ACTIVE
   * LOA: the grant reaches the ledger with `organization.standing.updated`, within the relay's lag.
   */
  const ledgerKnowsLoa = (organizationId: string) =>
    eventually(async () => (await prisma().ledgerOrganizationStanding.findUnique({ where: { organizationId } }))?.parentHoldsActiveLoa || undefined);
  const primaryAccountOpened = (accountId: string) => eventually(async () => (await prisma().ledgerAccount.findUnique({ where: { id: accountId }, select: { id: true } }))?.id);
  async function funded(label: string): Promise<CreatedOrganization> {
    const org = await stack().createOrganization(label);
    await primaryAccountOpened(org.accountId);
    expect((await post('/v1/funding-methods', org.apiKey, { asset: 'USDC' })).status).toBe(200);
    return org;
  }
  return { call, post, patch, receiver, faucet, setVerification, endpoint, attempts, ledgerKnowsLoa, primaryAccountOpened, funded };
}
