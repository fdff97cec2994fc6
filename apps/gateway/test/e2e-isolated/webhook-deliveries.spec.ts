import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { sleep } from '../support/http-client';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';
import { TestDnsServer } from '../e2e/support/test-dns-server';
import { webhookFlows } from '../e2e/support/webhook-flows';
import { WebhookReceiver, type Received, type Reply } from '../e2e/support/webhook-receiver';

const queuePrefix = isolateQueues('gw-e2e-deliveries');

interface Body {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/*
 * Webhook deliveries that need settings of their own, real receivers on 127.0.0.1, every delivery
 * verified with the `standardwebhooks` package: a short retry schedule and auto-disable window
 * stand in for the production ones, a worker of 8 slots shows the per-endpoint cap, and the
 * stack's own DNS server makes a name rebind between check and delivery. Last, the worker is
 * killed and the delivery queue flushed: PostgreSQL is the store, Redis only the transport. The
 * rest of the deliveries run on the shared stack (test/e2e/webhook-deliveries.spec.ts).
 */
describe('webhook deliveries (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let dns: TestDnsServer;
  const receivers: WebhookReceiver[] = [];

  const { call, post, patch, receiver, faucet, setVerification, endpoint, attempts, funded } = webhookFlows(() => e2e, () => prisma, receivers);
  const arrived = (target: WebhookReceiver, count: number, timeoutMs = 20000) =>
    eventually(async () => (target.unique().size >= count ? [...target.unique().values()] : undefined), timeoutMs, 50);
  const transactionsOf = (target: WebhookReceiver) =>
    target.payloads<Body>().filter((body) => body.type === 'transaction.status.updated').map((body) => body.data.transaction_id);

  beforeAll(async () => {
    dns = await new TestDnsServer().start();
    dns.records.set('localhost', ['127.0.0.1']);
    e2e = await startE2eStack(queuePrefix, {
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      WEBHOOK_DNS_SERVERS: dns.address,
      WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1s',
      WEBHOOK_DISABLE_AFTER: '1s',
      WEBHOOK_DISABLE_MIN_FAILURES: '4',
      WEBHOOK_SWEEP_INTERVAL_MS: '1000',
      WEBHOOK_ENDPOINT_CACHE_MS: '0',
      WEBHOOK_WORKER_CONCURRENCY: '8',
    }, { apps: ['organization-service', 'ledger-service', 'webhook-delivery-service', 'webhook-delivery-worker'] });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-deliveries' });
  }, 120000);

  afterAll(async () => {
    await Promise.all(receivers.map((target) => target.stop()));
    await dns?.stop();
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('retries with the same hook-id and a fresh signature: a 3xx is a failure (not followed), a 503 Retry-After is waited', async () => {
    const org = await funded('e2e hooks retry');
    const target = await receiver();
    target.reply = (_request, count): Reply =>
      count === 1 ? { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } } : count === 2 ? { status: 503, headers: { 'retry-after': '1' }, body: 'busy' } : { status: 200 };
    const endpointId = await endpoint(org, target);
    await faucet(org);
    await eventually(async () => (target.received.length >= 3 ? true : undefined), 20000);
    const [first, second, third] = target.received;
    expect(new Set([first.id, second.id, third.id]).size).toBe(1);
    for (const request of [first, second, third]) expect(request.verifiedWith).toEqual(target.secrets);
    // The 503 asked for 1 s where the schedule said 600 ms ± 20 % (at most 720 ms): the third
    // attempt waited at least the second (within the cap of twice the schedule), and was signed then.
    expect(third.receivedAt - second.receivedAt).toBeGreaterThanOrEqual(950);
    expect(third.timestamp).toBeGreaterThan(first.timestamp);
    expect(third.signatures).not.toEqual(first.signatures);
    const log = await eventually(async () => {
      const rows = await attempts(org, endpointId);
      return rows.length === 3 ? rows : undefined;
    });
    expect(log.map((row) => [row.attempt, row.statusCode])).toEqual([
      [3, 200],
      [2, 503],
      [1, 302],
    ]);
    expect(log[2].error).toContain('redirects are not followed');
    expect(log[1]).toMatchObject({ error: 'HTTP 503', response: 'busy' });
  }, 120000);


  it('filters by eventTypes; a disabled endpoint gets nothing, is not replayed when re-enabled, and recover sends what it dropped; a deleted one gets nothing', async () => {
    const org = await funded('e2e hooks filters');
    const [kyc, tx, paused, gone] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const kycId = await endpoint(org, kyc, { eventTypes: ['organization.verification.updated'] });
    const txId = await endpoint(org, tx, { eventTypes: ['transaction.status.updated'] });
    const pausedId = await endpoint(org, paused);
    const goneId = await endpoint(org, gone);
    expect((await patch(`/v1/webhooks/endpoints/${pausedId}`, org.apiKey, { disabled: true })).status).toBe(200);
    expect((await call(`/v1/webhooks/endpoints/${goneId}`, { method: 'DELETE', key: org.apiKey, headers: { 'Idempotency-Key': randomUUID() } })).status).toBe(200);
    const since = new Date(Date.now() - 1000).toISOString();

    const transactionId = await faucet(org);
    await setVerification(org, org.organizationId, 'ON_HOLD');
    await arrived(kyc, 1);
    await arrived(tx, 1);
    // Both messages arrived somewhere, so all their deliveries are recorded (one transaction per
    // message): one each for kyc and tx, done; the paused endpoint's recorded DROPPED (never
    // attempted); none for the deleted one.
    const statuses = async (endpointId: string) =>
      (await prisma.deliveryDelivery.findMany({ where: { endpointId }, select: { status: true } })).map((row) => row.status);
    await eventually(async () => ((await statuses(kycId)).join() === 'SUCCEEDED' && (await statuses(txId)).join() === 'SUCCEEDED' ? true : undefined), 20000, 100);
    expect(await statuses(pausedId)).toEqual(['DROPPED', 'DROPPED']);
    expect(await statuses(goneId)).toEqual([]);
    expect(kyc.payloads<Body>().map((body) => [body.type, body.data.status, body.data.reason])).toEqual([['organization.verification.updated', 'ON_HOLD', 'Proof of address is unreadable']]);
    expect(transactionsOf(tx)).toEqual([transactionId]);
    expect(paused.received).toEqual([]);
    expect(gone.received).toEqual([]);

    expect((await patch(`/v1/webhooks/endpoints/${pausedId}`, org.apiKey, { disabled: false })).status).toBe(200);
    await sleep(1500);
    expect(paused.received).toEqual([]);
    const recovered = await post(`/v1/webhooks/endpoints/${pausedId}/recover`, org.apiKey, { since });
    expect(recovered.status).toBe(202);
    expect(recovered.json()).toMatchObject({ object: 'webhook_recovery', endpointId: pausedId, since, until: null, messages: 2 });
    const both = await arrived(paused, 2);
    expect(both.every((request) => request.verifiedWith.length === 1)).toBe(true);
    expect(new Set(paused.payloads<Body>().map((body) => body.type))).toEqual(new Set(['transaction.status.updated', 'organization.verification.updated']));
    expectError(await post(`/v1/webhooks/endpoints/${pausedId}/recover`, org.apiKey, { since, until: since }), 400, 'invalid_request');
    expectError(await post(`/v1/webhooks/endpoints/${pausedId}/recover`, org.apiKey, { since: 'yesterday' }), 400, 'invalid_request');
  }, 120000);


  it('refuses at delivery a name that resolved public at registration and private now (DNS rebinding): no request reaches it', async () => {
    const org = await funded('e2e hooks rebinding');
    const target = await receiver();
    dns.records.set('rebind.example', ['93.184.216.34']);
    const created = await post('/v1/webhooks/endpoints', org.apiKey, { url: target.url('/hooks', 'rebind.example') });
    expect(created.status).toBe(201);
    const endpointId = created.json<{ id: string }>().id;
    dns.records.set('rebind.example', ['169.254.169.254']);
    await faucet(org);
    const log = await eventually(async () => {
      const rows = await attempts(org, endpointId);
      return rows.length ? rows : undefined;
    });
    expect(log[0]).toMatchObject({ attempt: 1, statusCode: null });
    expect(log[0].error).toContain('destination refused');
    expect(log[0].error).toContain('169.254.169.254');
    expect(target.received).toEqual([]);
    // A name that resolves to a private network is refused the same way at registration.
    dns.records.set('private.example', ['10.1.2.3']);
    expectError(await post('/v1/webhooks/endpoints', org.apiKey, { url: target.url('/hooks', 'private.example') }), 400, 'invalid_request');
  }, 120000);


  it('disables an endpoint at once on 410 Gone, and after WEBHOOK_DISABLE_AFTER of failures (at least WEBHOOK_DISABLE_MIN_FAILURES)', async () => {
    const org = await funded('e2e hooks disable');
    const [goneHooks, failingHooks] = await Promise.all([receiver(), receiver()]);
    goneHooks.reply = () => ({ status: 410, body: 'gone' });
    failingHooks.reply = () => ({ status: 500, body: 'boom' });
    const goneId = await endpoint(org, goneHooks);
    const failingId = await endpoint(org, failingHooks);
    await faucet(org);
    const state = async (id: string) => (await call(`/v1/webhooks/endpoints/${id}`, { key: org.apiKey })).json<{ disabled: boolean }>().disabled;
    await eventually(async () => ((await state(goneId)) ? true : undefined), 20000);
    expect(goneHooks.received).toHaveLength(1);
    // 4 attempts over 0 + 0.3 + 0.6 + 1 s: four failures in a row, for more than 1 s.
    await eventually(async () => ((await state(failingId)) ? true : undefined), 20000);
    expect(failingHooks.received).toHaveLength(4);
    // A witness endpoint registered now: once it has the next message, that message's deliveries
    // are all recorded (one transaction per message), the disabled endpoints' as DROPPED: never attempted.
    const witness = await receiver();
    await endpoint(org, witness);
    await faucet(org);
    const [next] = await arrived(witness, 1);
    const dropped = await prisma.deliveryDelivery.findMany({ where: { messageId: next.id, endpointId: { in: [goneId, failingId] } }, select: { status: true } });
    expect(dropped.map((row) => row.status)).toEqual(['DROPPED', 'DROPPED']);
    expect(goneHooks.received).toHaveLength(1);
    expect(failingHooks.received).toHaveLength(4);
  }, 120000);


  it('isolates receivers: an endpoint that hangs holds at most its cap of attempts, and a healthy one gets everything meanwhile', async () => {
    const org = await funded('e2e hooks isolation');
    const [hanging, healthy] = await Promise.all([receiver(), receiver()]);
    hanging.reply = () => 'hang';
    const hangingId = await endpoint(org, hanging);
    await endpoint(org, healthy);
    const ids: string[] = [];
    // More messages than the worker has slots (8): without the per-endpoint cap the hanging
    // endpoint would hold every slot and the healthy one would wait for the 15 s timeout.
    for (let i = 0; i < 12; i += 1) ids.push(await faucet(org));
    await arrived(healthy, 12, 60000);
    expect(new Set(transactionsOf(healthy))).toEqual(new Set(ids));
    // None of the hanging attempts has ended (an attempt is recorded when it ends, at the latest
    // at its 15 s timeout): the healthy endpoint did not wait for them. Never more than 4 at once.
    expect(await prisma.deliveryAttempt.count({ where: { endpointId: hangingId } })).toBe(0);
    expect(hanging.maxOpen).toBeLessThanOrEqual(4);
    expect(hanging.maxOpen).toBeGreaterThanOrEqual(1);
    // Gone for good, so its attempts end now rather than hold worker slots into the next tests.
    expect((await call(`/v1/webhooks/endpoints/${hangingId}`, { method: 'DELETE', key: org.apiKey, headers: { 'Idempotency-Key': randomUUID() } })).status).toBe(200);
    await hanging.stop();
  }, 60000);

  /*
   * The delivery worker is `kill -9`'d in the middle of deliveries, and the delivery queue's keys
   * are deleted from Redis while retries wait in it: every message still reaches the receiver at
   * least once, so a receiver that de-duplicates by `hook-id` sees each exactly once. Last in the
   * file: the worker comes back with a longer retry schedule and no auto-disable in reach, so the
   * retries the flush deletes are still waiting when it comes.
   */
  describe('a killed worker and a Redis flush', () => {
    let redis: Redis;
    let org: CreatedOrganization;
    let target: WebhookReceiver;
    let targetId: string;
    const delivered = (to: WebhookReceiver = target) => new Set(to.payloads<{ data: { transaction_id: string } }>().map((body) => body.data.transaction_id));
    /** The transactions whose event reached the target at or after `since`. */
    const arrivedSince = (since: number) =>
      new Set(
        target.received
          .filter((request) => request.receivedAt >= since)
          .map((request) => (JSON.parse(request.body) as { data: { transaction_id: string } }).data.transaction_id),
      );
    /** The target's deliveries of what it received, once every one is SUCCEEDED. */
    const allSucceeded = () =>
      eventually(async () => {
        const found = await prisma.deliveryDelivery.findMany({ where: { messageId: { in: [...target.unique().keys()] }, endpointId: targetId }, select: { status: true, attemptsMade: true } });
        return found.every((row) => row.status === 'SUCCEEDED') ? found : undefined;
      }, 30000);

    beforeAll(async () => {
      redis = new Redis(testRedisUrl());
      org = await funded('e2e hooks kill');
      target = await receiver();
      targetId = await endpoint(org, target);
    }, 120000);

    afterAll(() => {
      redis?.disconnect();
    });

    it('kill -9 of the worker mid-delivery: every message arrives, each hook-id once after de-duplication', async () => {
      // Two endpoints that hold every request open: once each holds its cap of 4 attempts, all 8
      // deliveries are attempts in flight (claimed, sent, unanswered), so the kill lands on
      // exactly those, whatever the machine's speed.
      const second = await receiver();
      const secondId = await endpoint(org, second);
      for (const each of [target, second]) each.reply = () => 'hang';
      const transactions: string[] = [];
      for (let i = 0; i < 4; i += 1) transactions.push(await faucet(org));
      await eventually(async () => (target.maxOpen >= 4 && second.maxOpen >= 4 ? true : undefined), 30000, 10);
      await e2e.stack.stopApp('webhook-delivery-worker', 'SIGKILL');
      for (const each of [target, second]) each.reply = () => ({ status: 200 });
      // Messages of the outage wait in the queue.
      for (let i = 0; i < 4; i += 1) transactions.push(await faucet(org));
      expect(delivered().size).toBeLessThan(transactions.length);
      await e2e.stack.startApp('webhook-delivery-worker', {
        WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1s,2s,5s,10s',
        WEBHOOK_DISABLE_AFTER: '1h',
        WEBHOOK_DISABLE_MIN_FAILURES: '1000',
      });

      // Attempts caught by the kill come back once their lease ends (20 s) and the sweeper finds them.
      await eventually(async () => (delivered().size >= transactions.length && delivered(second).size >= transactions.length ? true : undefined), 120000, 200);
      for (const each of [target, second]) {
        expect(delivered(each)).toEqual(new Set(transactions));
        expect(each.unique().size).toBe(transactions.length);
        expect([...each.unique().values()].every((request) => request.verifiedWith.length === 1)).toBe(true);
      }
      // The attempts the kill interrupted (sent, never recorded) are made again once their lease
      // ends: every delivery ends SUCCEEDED, none is lost in between.
      await eventually(
        async () => {
          const rows = await prisma.deliveryDelivery.findMany({ where: { messageId: { in: [...target.unique().keys()] }, endpointId: { in: [targetId, secondId] } }, select: { status: true } });
          return rows.length === 2 * transactions.length && rows.every((row) => row.status === 'SUCCEEDED') ? true : undefined;
        },
        90000,
        500,
      );
    }, 240000);

    it('a flush of the delivery queue while retries wait in it: the sweeper queues them again from PostgreSQL', async () => {
      target.received.length = 0;
      let failing = true;
      target.reply = () => (failing ? { status: 500, body: 'down' } : { status: 200 });
      const transactions: string[] = [];
      for (let i = 0; i < 10; i += 1) transactions.push(await faucet(org));
      // Each message has failed once, and its retry waits in Redis.
      await eventually(async () => (target.unique().size >= transactions.length ? true : undefined), 30000, 20);
      // Every key of the queue at once, as a flush would (KEYS then DEL could miss a job added between).
      const deleted = await redis.eval(
        "local keys = redis.call('KEYS', ARGV[1]) for _, key in ipairs(keys) do redis.call('DEL', key) end return #keys",
        0,
        `${queuePrefix}:webhook-deliveries:*`,
      );
      expect(Number(deleted)).toBeGreaterThan(0);
      failing = false;
      const flushedAt = Date.now();
      // The sweeper (every second here) finds the due deliveries again; the bound is generous.
      await eventually(async () => (transactions.every((id) => arrivedSince(flushedAt).has(id)) ? true : undefined), 60000, 200);
      expect(await allSucceeded()).toHaveLength(transactions.length);
    }, 120000);

    it('retries whose jobs Redis holds but no consumer serves (the queue paused, as a consumer wedged after a failover leaves them): the sweeper makes them itself', async () => {
      target.received.length = 0;
      let failing = true;
      target.reply = () => (failing ? { status: 500, body: 'down' } : { status: 200 });
      const deliveries = new Queue('webhook-deliveries', { connection: redis, prefix: queuePrefix });
      try {
        // First attempts are made on receipt, without a job; their retries are jobs, which nothing takes now.
        await deliveries.pause();
        const transactions: string[] = [];
        for (let i = 0; i < 5; i += 1) transactions.push(await faucet(org));
        await eventually(async () => (target.unique().size >= transactions.length ? true : undefined), 30000, 20);
        failing = false;
        const firstFailedAt = Date.now();
        await eventually(async () => (transactions.every((id) => arrivedSince(firstFailedAt).has(id)) ? true : undefined), 60000, 200);
        // The retries' jobs are still where they were queued: the attempts were not theirs.
        expect(await deliveries.getJobCountByTypes('delayed', 'wait')).toBeGreaterThanOrEqual(transactions.length);
        expect((await allSucceeded()).map((row) => row.attemptsMade)).toEqual(transactions.map(() => 2));
      } finally {
        await deliveries.resume();
        await deliveries.close();
      }
    }, 120000);
  });
});

export type { Received };
