import { randomBytes, randomUUID } from 'node:crypto';
import { Big } from '@pfs/contracts';
import { startRedisCluster, type RedisCluster } from '@pfs/devstack';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, ledgerInvariantViolations, redisContentsUnder, testDatabaseUrl } from '@pfs/testing';
import { inPool, send, sleep, type Answer } from '../support/http-client';
import { startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';
import { TestDnsServer } from '../e2e/support/test-dns-server';
import { webhookFlows } from '../e2e/support/webhook-flows';
import { WebhookReceiver } from '../e2e/support/webhook-receiver';

const queuePrefix = isolateQueues('gw-e2e-replicas');

type DeliveryRow = { id: string; attempts_made: number; next_attempt_at: Date | null };

const FAUCETS = 18;
const TRANSFERS = 9;
const TRADES = 9;
/** Killed (-9) once a third of the load has been answered, and not started again. */
const KILLED = ['ledger-service-2', 'quote-service-2', 'webhook-delivery-worker-2'];

/*
 * Two processes of every service and of the worker, two gateways behind one port, on a Redis
 * Cluster of three primaries (REDIS_CLUSTER_NODES): faucet credits, servicenet transfers and
 * quote executions run at once while one replica of the ledger, of the quote service and of the
 * worker is killed with -9 and the primary that holds the queues is restarted. A client retries
 * what failed (503 or a lost connection) with the same Idempotency-Key, as a partner would: every
 * request then takes effect exactly once, every event reaches the webhook receiver, and the books
 * balance. Every other end-to-end file runs on one Redis, the default.
 */
describe('two replicas of everything on a Redis Cluster, one of each killed and a primary restarted mid-load (end to end)', () => {
  let cluster: RedisCluster;
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let dns: TestDnsServer;
  let payer: CreatedOrganization;
  let payee: CreatedOrganization;
  let beneficiaryId: string;
  const receivers: WebhookReceiver[] = [];
  const flows = webhookFlows(() => e2e, () => prisma, receivers);

  /**
   * For a failure's message: how far each transaction's event got (the ledger's outbox, the
   * webhook service's message and outbox, the worker's delivery and its attempts).
   */
  async function whereTheyStand(ids: string[]): Promise<unknown[]> {
    return Promise.all(
      ids.map(async (id) => {
        const like = `%${id}%`;
        const [ledgerEvents, messages] = await Promise.all([
          prisma.$queryRaw`SELECT id, type, created_at, published_at FROM "ledger"."outbox_events" WHERE payload::text LIKE ${like} ORDER BY created_at`,
          prisma.$queryRaw<Array<{ id: string }>>`SELECT id, event_id, event_type, endpoint_ids, created_at FROM "webhook"."messages" WHERE payload LIKE ${like}`,
        ]);
        const messageIds = messages.map((message) => message.id);
        const [webhookEvents, deliveries, attempts] = await Promise.all([
          prisma.$queryRaw`SELECT id, type, created_at, published_at FROM "webhook"."outbox_events" WHERE payload->>'aggregateId' = ANY(${messageIds}) OR payload::text LIKE ${like}`,
          prisma.$queryRaw<DeliveryRow[]>`SELECT id, message_id, status, attempts_made, next_attempt_at, leased_until, leased_by, created_at, updated_at FROM "delivery"."deliveries" WHERE message_id = ANY(${messageIds})`,
          prisma.$queryRaw`SELECT delivery_id, attempt, created_at, status_code, duration_ms, error FROM "delivery"."attempts" WHERE message_id = ANY(${messageIds})`,
        ]);
        return { transactionId: id, ledgerEvents, messages, webhookEvents, deliveries, attempts, jobs: await deliveryJobs(deliveries) };
      }),
    );
  }

  /** Where each delivery's job is in the worker's queue (its hash, its list), and the queue's lists and clients. */
  async function deliveryJobs(deliveries: DeliveryRow[]): Promise<unknown> {
    const primary = await cluster.primaryOf(`{${queuePrefix}}`);
    const ids = deliveries.map((row) => `${row.id}.${row.attempts_made}.${row.next_attempt_at?.getTime() ?? ''}`);
    const script = `
      local base = ARGV[1]
      local out = { jobs = {} }
      for i = 2, #ARGV do
        local id = ARGV[i]
        out.jobs[id] = { hash = redis.call('HGETALL', base .. id), wait = redis.call('LPOS', base .. 'wait', id), active = redis.call('LPOS', base .. 'active', id),
          delayed = redis.call('ZSCORE', base .. 'delayed', id), lock = redis.call('EXISTS', base .. id .. ':lock') }
      end
      out.wait = redis.call('LLEN', base .. 'wait')
      out.active = redis.call('LLEN', base .. 'active')
      out.delayed = redis.call('ZCARD', base .. 'delayed')
      out.marker = redis.call('ZRANGE', base .. 'marker', 0, -1, 'WITHSCORES')
      out.meta = redis.call('HGETALL', base .. 'meta')
      return cjson.encode(out)`;
    const queue = await cluster.command(primary, ['EVAL', script, '0', `{${queuePrefix}}:webhook-deliveries:`, ...ids]).catch((error: Error) => error.message);
    const clients = await cluster.command(primary, ['CLIENT', 'LIST']).catch((error: Error) => error.message);
    const names = clients.split('\n').map((line) => /name=(\S*)/.exec(line)?.[1] ?? '').filter(Boolean);
    return { queue, clients: names };
  }

  /** A POST retried with its key until it is answered 2xx (or refused 4xx), as a client would. */
  async function settled(path: string, key: string, body: Record<string, unknown> | undefined, idempotencyKey = randomUUID()): Promise<Answer> {
    const deadline = Date.now() + 150000;
    for (;;) {
      let answer: Answer | undefined;
      try {
        answer = await send(e2e.baseUrl, path, { method: 'POST', key, ...(body ? { body } : {}), headers: { 'Idempotency-Key': idempotencyKey } });
      } catch {
        // The connection went with a gateway's upstream: the same request again.
      }
      if (answer && answer.status < 500 && answer.status !== 409) return answer;
      // 409 here is the key still in flight on another gateway: its answer comes once it settles.
      if (Date.now() > deadline) throw new Error(`${path} not settled: last ${answer?.status} ${answer?.text.slice(0, 200)}`);
      await sleep(200);
    }
  }

  beforeAll(async () => {
    dns = await new TestDnsServer().start();
    dns.records.set('localhost', ['127.0.0.1']);
    cluster = await startRedisCluster();
    e2e = await startE2eStack(
      queuePrefix,
      { REDIS_CLUSTER_NODES: cluster.nodesSetting, COMMAND_TIMEOUT_MS: '3000', WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_DNS_SERVERS: dns.address, WEBHOOK_SWEEP_INTERVAL_MS: '1000' },
      { replicas: 2 },
    );
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-replicas' });
    [payer, payee] = await Promise.all([flows.funded('e2e replicas payer'), flows.funded('e2e replicas payee')]);
    for (const org of [payer, payee]) expect((await settled('/v1/servicenet/enable', org.apiKey, undefined)).status).toBe(200);
    const handle = `replicas-${randomBytes(4).toString('hex')}`;
    const claimed = await send(e2e.baseUrl, '/v1/servicenet/handle', { method: 'PUT', key: payee.apiKey, body: { handle }, headers: { 'Idempotency-Key': randomUUID() } });
    expect(claimed.status).toBe(200);
    const beneficiary = await settled('/v1/beneficiaries/servicenet', payer.apiKey, { accountId: payer.accountId, nickname: 'Payee', handle });
    expect(beneficiary.status).toBe(201);
    beneficiaryId = beneficiary.json<{ beneficiaryId: string }>().beneficiaryId;
    const funded = await settled('/v1/transactions/faucet', payer.apiKey, { accountId: payer.accountId, asset: 'USDC', amount: '100', chainName: 'ETHEREUM_SEPOLIA' });
    expect(funded.status).toBe(200);
  }, 240000);

  afterAll(async () => {
    await Promise.all(receivers.map((target) => target.stop()));
    await dns?.stop();
    await prisma?.$disconnect();
    await e2e?.stop();
    await cluster?.stop();
  }, 90000);

  it('every accepted request takes effect once, every event is delivered, the books balance', async () => {
    expect([...e2e.stack.apps.keys()].sort()).toEqual(
      ['beneficiary-service', 'gateway', 'ledger-service', 'organization-service', 'quote-service', 'webhook-delivery-service', 'webhook-delivery-worker']
        .flatMap((app) => [app, `${app}-2`])
        .sort(),
    );
    const receiver = await flows.receiver();
    await flows.endpoint(payer, receiver);
    // Every BullMQ key carries the hash tag {prefix}: one primary holds every queue.
    const queuesPrimary = await cluster.primaryOf(`{${queuePrefix}}`);
    const restartQueuesPrimary = () => cluster.restartPrimary(queuesPrimary);

    let answered = 0;
    let killing: Promise<unknown> | undefined;
    const counted = async <T>(work: Promise<T>): Promise<T> => {
      const value = await work;
      answered += 1;
      if (!killing && answered >= (FAUCETS + TRANSFERS + TRADES) / 3) {
        killing = Promise.all([...KILLED.map((instance) => e2e.stack.stopApp(instance, 'SIGKILL')), restartQueuesPrimary()]);
      }
      return value;
    };
    const faucet = () =>
      counted(settled('/v1/transactions/faucet', payer.apiKey, { accountId: payer.accountId, asset: 'USDC', amount: '1', chainName: 'ETHEREUM_SEPOLIA' }));
    const transfer = () => counted(settled('/v1/transfers', payer.apiKey, { accountId: payer.accountId, beneficiaryId, asset: 'USDC', amount: '1' }));
    const trade = async () => {
      const quote = await settled('/v1/quotes', payer.apiKey, { accountId: payer.accountId, fromAsset: 'USDC', toAsset: 'USD', fromAmount: '1' });
      expect(quote.status).toBe(201);
      return counted(settled(`/v1/quotes/${quote.json<{ quoteId: string }>().quoteId}/execute`, payer.apiKey, undefined));
    };
    // Interleaved (a faucet, a transfer, a trade, ... then the faucets left), eight at a time.
    const work = Array.from({ length: FAUCETS }, (_, index) => [faucet, ...(index < TRANSFERS ? [transfer] : []), ...(index < TRADES ? [trade] : [])]).flat();
    const answers = await inPool(work.length, 8, (index) => (work[index] as () => Promise<Answer>)());
    await killing;
    for (const instance of KILLED) expect(e2e.stack.apps.get(instance)?.process.signalCode).toBe('SIGKILL');
    // The apps ran on the cluster: their queues are on its primary, nothing on the single Redis.
    const queueKeys = await cluster.command(queuesPrimary, ['EVAL', "return #redis.call('KEYS', ARGV[1])", '0', `{${queuePrefix}}:*`]);
    expect(Number(queueKeys)).toBeGreaterThan(0);
    expect(await redisContentsUnder(queuePrefix)).toEqual([]);

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200 || status === 201)).toHaveLength(work.length);
    const transactionIds = answers.map((answer) => answer.json<{ transactionId: string }>().transactionId);
    expect(new Set(transactionIds).size).toBe(work.length);

    // Exactly once: one ledger transaction per accepted request, and no other.
    const rows = await prisma.ledgerTransaction.findMany({ where: { accountId: payer.accountId }, select: { id: true, type: true } });
    const byType = (type: string) => rows.filter((row) => row.type === type).length;
    expect(byType('CRYPTO_PAYIN')).toBe(FAUCETS + 1);
    expect(byType('INTERNAL_TRANSFER')).toBe(TRANSFERS);
    expect(byType('TRADE')).toBe(TRADES);
    for (const id of transactionIds) expect(rows.some((row) => row.id === id)).toBe(true);

    const balance = async (org: CreatedOrganization, asset: string) =>
      new Big((await prisma.ledgerBalance.findUnique({ where: { accountId_asset: { accountId: org.accountId, asset } } }))?.amount.toFixed() ?? '0');
    expect((await balance(payer, 'USDC')).toFixed(6)).toBe(new Big(100 + FAUCETS - TRANSFERS - TRADES).toFixed(6));
    expect((await balance(payee, 'USDC')).toFixed(6)).toBe(new Big(TRANSFERS).toFixed(6));
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);

    // Every transaction the payer's endpoint subscribes to reaches it, each hook-id once after de-duplication.
    const undelivered = () => {
      const delivered = new Set(
        receiver
          .payloads<{ type: string; data: { transaction_id?: string } }>()
          .flatMap((body) => (body.type === 'transaction.status.updated' && body.data.transaction_id ? [body.data.transaction_id] : [])),
      );
      return transactionIds.filter((id) => !delivered.has(id));
    };
    await eventually(async () => !undelivered().length || undefined, 150000, 250).catch(async (error: unknown) => {
      // The apps' warnings and errors too: what went wrong on the way is in them.
      const troubles = [...e2e.stack.apps].map(([instance, app]) => ({
        instance,
        exited: app.process.exitCode ?? app.process.signalCode,
        lines: app.output.filter((line) => !line.startsWith('{') || /"level":"(warn|error|fatal)"/.test(line)).slice(-15),
      }));
      throw new Error(`${(error as Error).message}; where the undelivered stand: ${JSON.stringify({ stand: await whereTheyStand(undelivered()), troubles }, null, 1)}`);
    });

    // Both gateways served partners' requests through the one port.
    const served = (instance: string) => (e2e.stack.apps.get(instance)?.output ?? []).some((line) => line.includes('"route":"/v1/'));
    expect([served('gateway'), served('gateway-2')]).toEqual([true, true]);
  }, 420000);
});
