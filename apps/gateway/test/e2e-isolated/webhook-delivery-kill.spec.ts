import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { Redis } from 'ioredis';
import { send, type RequestOptions } from '../support/http-client';
import { startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';
import { WebhookReceiver } from '../e2e/support/webhook-receiver';

const queuePrefix = isolateQueues('gw-e2e-hook-kill');

/*
 * PostgreSQL is the store and Redis only the transport. The delivery worker is
 * `kill -9`'d in the middle of deliveries, and the delivery queue's keys are deleted from Redis
 * while retries wait in it: every message still reaches the receiver at least once, so a
 * receiver that de-duplicates by `hook-id` sees each exactly once.
 */
describe('webhook deliveries survive a killed worker and a Redis flush (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let redis: Redis;
  let org: CreatedOrganization;
  const target = new WebhookReceiver();

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const post = (path: string, key: string, body: unknown = {}) => call(path, { method: 'POST', key, body, headers: { 'Idempotency-Key': randomUUID() } });
  const faucet = async () => {
    const answer = await post('/v1/transactions/faucet', org.apiKey, { accountId: org.accountId, asset: 'USDC', amount: '1', chainName: 'ETHEREUM_SEPOLIA' });
    expect(answer.status).toBe(200);
    return answer.json<{ transactionId: string }>().transactionId;
  };
  const delivered = () => new Set(target.payloads<{ data: { transaction_id: string } }>().map((body) => body.data.transaction_id));

  beforeAll(async () => {
    await target.start();
    e2e = await startE2eStack(queuePrefix, {
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1s,2s,5s,10s',
      WEBHOOK_SWEEP_INTERVAL_MS: '1000',
      WEBHOOK_ENDPOINT_CACHE_MS: '0',
    }, { apps: ['organization-service', 'ledger-service', 'webhook-delivery-service', 'webhook-delivery-worker'] });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-hook-kill' });
    redis = new Redis(testRedisUrl());
    org = await e2e.createOrganization('e2e hooks kill');
    await eventually(async () => (await prisma.ledgerAccount.findUnique({ where: { id: org.accountId }, select: { id: true } }))?.id);
    expect((await post('/v1/funding-methods', org.apiKey, { asset: 'USDC' })).status).toBe(200);
    const created = await post('/v1/webhooks/endpoints', org.apiKey, { url: target.url() });
    target.secrets.push((await call(`/v1/webhooks/endpoints/${created.json<{ id: string }>().id}/secret`, { key: org.apiKey })).json<{ key: string }>().key);
  }, 120000);

  afterAll(async () => {
    redis?.disconnect();
    await target.stop();
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('kill -9 of the worker mid-delivery: every message arrives, each hook-id once after de-duplication', async () => {
    target.received.length = 0;
    // Slow answers, so the kill lands while attempts are in flight.
    target.reply = () => ({ status: 200, delayMs: 300 });
    const transactions: string[] = [];
    for (let i = 0; i < 20; i += 1) transactions.push(await faucet());
    await eventually(async () => (target.received.length >= 3 ? true : undefined), 20000, 10);
    await e2e.stack.stopApp('webhook-delivery-worker', 'SIGKILL');
    const beforeRestart = delivered().size;
    expect(beforeRestart).toBeLessThan(transactions.length);
    await e2e.stack.startApp('webhook-delivery-worker');

    // Attempts caught by the kill come back once their lease ends (20 s) and the sweeper finds them.
    await eventually(async () => (delivered().size >= transactions.length ? true : undefined), 90000, 200);
    expect(delivered()).toEqual(new Set(transactions));
    expect(target.unique().size).toBe(transactions.length);
    expect([...target.unique().values()].every((request) => request.verifiedWith.length === 1)).toBe(true);
    // The attempts the kill interrupted (sent, never recorded) are made again once their lease
    // ends: every delivery ends SUCCEEDED, none is lost in between.
    await eventually(
      async () => {
        const rows = await prisma.deliveryDelivery.findMany({ where: { messageId: { in: [...target.unique().keys()] } }, select: { status: true } });
        return rows.length === transactions.length && rows.every((row) => row.status === 'SUCCEEDED') ? true : undefined;
      },
      90000,
      500,
    );
  }, 200000);

  it('a flush of the delivery queue while retries wait in it: the sweeper queues them again from PostgreSQL', async () => {
    target.received.length = 0;
    let failing = true;
    target.reply = () => (failing ? { status: 500, body: 'down' } : { status: 200 });
    const transactions: string[] = [];
    for (let i = 0; i < 10; i += 1) transactions.push(await faucet());
    // Each message has failed once, and its retry waits in Redis.
    await eventually(async () => (target.unique().size >= transactions.length ? true : undefined), 20000, 20);
    // Every key of the queue at once, as a flush would (KEYS then DEL could miss a job added between).
    const deleted = await redis.eval(
      "local keys = redis.call('KEYS', ARGV[1]) for _, key in ipairs(keys) do redis.call('DEL', key) end return #keys",
      0,
      `${queuePrefix}:webhook-deliveries:*`,
    );
    expect(Number(deleted)).toBeGreaterThan(0);
    failing = false;
    const flushedAt = Date.now();
    const succeeded = () =>
      new Set(
        target.received
          .filter((request) => request.receivedAt >= flushedAt)
          .map((request) => (JSON.parse(request.body) as { data: { transaction_id: string } }).data.transaction_id),
      );
    // Within the bound: due deliveries are queued again within 30 s.
    await eventually(async () => (transactions.every((id) => succeeded().has(id)) ? true : undefined), 30000, 200);
    const rows = await eventually(async () => {
      const found = await prisma.deliveryDelivery.findMany({ where: { messageId: { in: [...target.unique().keys()] } }, select: { status: true } });
      return found.every((row) => row.status === 'SUCCEEDED') ? found : undefined;
    });
    expect(rows).toHaveLength(transactions.length);
  }, 90000);
});
