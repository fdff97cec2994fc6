import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';
import { webhookFlows } from './support/webhook-flows';
import { WebhookReceiver } from './support/webhook-receiver';

const queuePrefix = isolateQueues('gw-e2e-deliveries-shared');

interface Body {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/*
 * Webhook deliveries end to end on the shared stack, to receivers on 127.0.0.1, every delivery
 * verified with the `standardwebhooks` package: what needs no setting of its own. Retries,
 * auto-disable, the per-endpoint cap and DNS rebinding need a short retry schedule, a small
 * worker or a DNS server of their own: test/e2e-isolated/webhook-deliveries.spec.ts.
 */
describe('webhook deliveries on the shared stack (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  const receivers: WebhookReceiver[] = [];

  const { call, post, receiver, faucet, setVerification, endpoint, attempts, ledgerKnowsLoa, primaryAccountOpened, funded } = webhookFlows(() => e2e, () => prisma, receivers);
  /** A client of `broker` (POST /v1/organizations), approved, with an API key and USDC. */
  async function client(broker: CreatedOrganization, withLoa: boolean): Promise<CreatedOrganization> {
    const created = (await post('/v1/organizations', broker.apiKey, { name: `Client ${randomUUID().slice(0, 8)}`, entityType: 'INDIVIDUAL', country: 'FR' })).json<{
      organizationId: string;
      primaryAccountId: string;
    }>();
    await setVerification(broker, created.organizationId, 'APPROVED');
    const { apiKey } = await e2e.cli<{ apiKey: string }>('key:create', '--org', created.organizationId);
    const org = { organizationId: created.organizationId, accountId: created.primaryAccountId, apiKey };
    await primaryAccountOpened(org.accountId);
    expect((await post('/v1/funding-methods', apiKey, { asset: 'USDC' })).status).toBe(200);
    if (withLoa) {
      expect((await post('/v1/authorizations', apiKey, { granteeOrganizationId: broker.organizationId })).status).toBe(201);
      await ledgerKnowsLoa(org.organizationId);
    }
    return org;
  }
  const arrived = (target: WebhookReceiver, count: number, timeoutMs = 20000) =>
    eventually(async () => (target.unique().size >= count ? [...target.unique().values()] : undefined), timeoutMs, 50);
  const transactionsOf = (target: WebhookReceiver) =>
    target.payloads<Body>().filter((body) => body.type === 'transaction.status.updated').map((body) => body.data.transaction_id);

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-deliveries-shared' });
  }, 120000);

  afterAll(async () => {
    await Promise.all(receivers.map((target) => target.stop()));
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('delivers a faucet credit as spec 6.3 signs it and spec 2.12 shapes it, verified by standardwebhooks, and logs the attempt', async () => {
    const org = await funded('e2e hooks basic');
    const target = await receiver();
    const endpointId = await endpoint(org, target);
    const transactionId = await faucet(org, '2.5');
    const [delivery] = await arrived(target, 1);
    expect(delivery.verifiedWith).toEqual(target.secrets);
    expect(delivery.id).toMatch(/^msg_[0-9a-f]{32}$/);
    for (const name of ['id', 'timestamp', 'signature']) expect(delivery.headers[`webhook-${name}`]).toBe(delivery.headers[`hook-${name}`]);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['user-agent']).toMatch(/^PartnerFinanceService-Webhooks\//);
    // Unix seconds of the signing, moments before it arrived (a busy machine may add a few).
    expect(Math.abs(delivery.timestamp - Math.floor(delivery.receivedAt / 1000))).toBeLessThanOrEqual(30);
    const body = JSON.parse(delivery.body) as Body;
    expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(body).toMatchObject({ type: 'transaction.status.updated', data: { object: 'transaction', transaction_id: transactionId, status: 'COMPLETED', organization_id: org.organizationId, account_id: org.accountId } });
    expect(Object.keys(body.data).sort()).toEqual(['account_id', 'object', 'occurred_at', 'organization_id', 'previous_status', 'role', 'status', 'transaction_id', 'transaction_type']);

    const log = await eventually(async () => ((await attempts(org, endpointId)).length ? attempts(org, endpointId) : undefined));
    expect(log).toEqual([
      expect.objectContaining({ object: 'webhook_delivery_attempt', messageId: delivery.id, eventType: 'transaction.status.updated', attempt: 1, statusCode: 200, error: null, response: 'ok' }),
    ]);
    const stranger = await e2e.createOrganization('e2e hooks stranger');
    expectError(await call(`/v1/webhooks/endpoints/${endpointId}/deliveries`, { key: stranger.apiKey }), 404, 'not_found');
    expectError(await post(`/v1/webhooks/endpoints/${endpointId}/deliveries/${delivery.id}/resend`, stranger.apiKey), 404, 'not_found');
    expectError(await post(`/v1/webhooks/endpoints/${endpointId}/recover`, stranger.apiKey, { since: '2026-01-01T00:00:00Z' }), 404, 'not_found');
  }, 120000);


  it('scopes brokers as spec 6.4: a client’s verification always, its transactions only under an ACTIVE LOA', async () => {
    const broker = await funded('e2e hooks broker');
    const brokerHooks = await receiver();
    const brokerEndpoint = await endpoint(broker, brokerHooks);
    const withoutLoa = await client(broker, false);
    const withLoa = await client(broker, true);
    const [ownHooksA, ownHooksB] = await Promise.all([receiver(), receiver()]);
    const endpointA = await endpoint(withoutLoa, ownHooksA);
    const endpointB = await endpoint(withLoa, ownHooksB);

    const suppressed = await faucet(withoutLoa);
    const delivered = await faucet(withLoa);
    await setVerification(broker, withoutLoa.organizationId, 'ON_HOLD');
    await setVerification(broker, withLoa.organizationId, 'ON_HOLD');
    await arrived(ownHooksA, 2);
    await arrived(ownHooksB, 2);
    await arrived(brokerHooks, 5);
    // Every message of the test has arrived somewhere, so all of its deliveries are recorded (one
    // transaction per message): none is left to come once each endpoint's are done.
    for (const [endpointId, count] of [[endpointA, 2], [endpointB, 2], [brokerEndpoint, 5]] as const) {
      await eventually(async () => {
        const rows = await prisma.deliveryDelivery.findMany({ where: { endpointId }, select: { status: true } });
        return rows.length === count && rows.every((row) => row.status === 'SUCCEEDED') ? true : undefined;
      }, 20000, 100);
    }

    // Every organization receives its own events, scoped to itself.
    expect(transactionsOf(ownHooksA)).toEqual([suppressed]);
    expect(transactionsOf(ownHooksB)).toEqual([delivered]);
    // The broker: both clients' verification updates (row 1: APPROVED when created, then ON_HOLD),
    // and only the LOA client's transaction (row 2).
    const brokerBodies = brokerHooks.payloads<Body>();
    const verifications = brokerBodies.filter((body) => body.type === 'organization.verification.updated').map((body) => `${String(body.data.organization_id)} ${String(body.data.status)}`);
    expect(verifications.sort()).toEqual(
      [withoutLoa, withLoa].flatMap((org) => [`${org.organizationId} APPROVED`, `${org.organizationId} ON_HOLD`]).sort(),
    );
    expect(transactionsOf(brokerHooks)).toEqual([delivered]);
    // One message per event: the broker's copy carries the client's hook-id.
    const clientCopy = [...ownHooksB.unique().values()].find((request) => request.body.includes(delivered))!;
    const brokerCopy = [...brokerHooks.unique().values()].find((request) => request.body.includes(delivered))!;
    expect(brokerCopy.id).toBe(clientCopy.id);
    expect(brokerCopy.body).toBe(clientCopy.body);
    expect(brokerCopy.verifiedWith).toEqual(brokerHooks.secrets);
  }, 120000);


  it('rotates: without grace only the new secret verifies the next delivery; with grace both do until it ends', async () => {
    const org = await funded('e2e hooks rotation');
    const target = await receiver();
    const endpointId = await endpoint(org, target);
    const [original] = target.secrets;
    const rotated = (await post(`/v1/webhooks/endpoints/${endpointId}/secret/rotate`, org.apiKey, {})).json<{ key: string }>().key;
    target.secrets.push(rotated);
    await faucet(org);
    const [first] = await arrived(target, 1);
    expect(first.verifiedWith).toEqual([rotated]);
    expect(first.signatures).toHaveLength(1);

    const graced = (await post(`/v1/webhooks/endpoints/${endpointId}/secret/rotate`, org.apiKey, { gracePeriodSeconds: 3600 })).json<{ key: string }>().key;
    target.secrets = [original, rotated, graced];
    await faucet(org);
    const second = (await arrived(target, 2))[1];
    expect(second.verifiedWith).toEqual([rotated, graced]);
    expect(second.signatures).toHaveLength(2);
  }, 120000);


  it('resends a message with its hook-id and the next attempt number; an unknown message is 404', async () => {
    const org = await funded('e2e hooks resend');
    const target = await receiver();
    const endpointId = await endpoint(org, target);
    await faucet(org);
    const [delivery] = await arrived(target, 1);
    await eventually(async () => ((await attempts(org, endpointId)).length === 1 ? true : undefined));
    const resent = await post(`/v1/webhooks/endpoints/${endpointId}/deliveries/${delivery.id}/resend`, org.apiKey);
    expect(resent.status).toBe(202);
    expect(resent.json()).toMatchObject({ object: 'webhook_delivery', messageId: delivery.id, endpointId, status: 'PENDING' });
    await eventually(async () => (target.received.length === 2 ? true : undefined), 20000);
    expect(target.received[1].id).toBe(delivery.id);
    expect(target.received[1].verifiedWith).toEqual(target.secrets);
    const log = await eventually(async () => {
      const rows = await attempts(org, endpointId);
      return rows.length === 2 ? rows : undefined;
    });
    expect(log.map((row) => row.attempt)).toEqual([2, 1]);
    const page = await call(`/v1/webhooks/endpoints/${endpointId}/deliveries?limit=1`, { key: org.apiKey });
    expect(page.json()).toMatchObject({ object: 'list', hasMore: true, data: [{ attempt: 2 }] });
    expectError(await post(`/v1/webhooks/endpoints/${endpointId}/deliveries/msg_00000000000000000000000000000000/resend`, org.apiKey), 404, 'not_found');
    expectError(await post(`/v1/webhooks/endpoints/${endpointId}/deliveries/nope/resend`, org.apiKey), 404, 'not_found');
  }, 120000);

});
