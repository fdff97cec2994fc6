import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { commandLane, commandQueueName, newId, newRequestId, type CommandJobData, type CommandService } from '@pfs/contracts';
import { createRedisConnection } from '@pfs/messaging';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { send, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-once');

/*
 * A retry never repeats committed work, the gateway and the services as their own processes. The
 * organization and ledger services lose their first reply to `organizations.create` and
 * `funding-methods.provision` on purpose (PFS_TEST_DROP_FIRST_REPLY): the command commits, the
 * gateway answers 503 at its deadline and releases the Idempotency-Key, and the client retries.
 */
describe('exactly-once commands (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let broker: CreatedOrganization;
  const redis = createRedisConnection(testRedisUrl(), 'e2e-once');
  const queues = new Map<string, Queue>();

  const call = (path: string, options: RequestOptions) => send(e2e.baseUrl, path, options);
  const organizationsNamed = (name: string) => prisma.organization.count({ where: { name } });
  const provisionedEvents = (accountId: string) =>
    prisma.ledgerOutboxEvent.count({ where: { type: 'funding-methods.provisioned', payload: { path: ['data', 'accountId'], equals: accountId } } });

  /** The owner of a primary account, read from the ledger's table (open by the time the CLI answers). */
  const primaryAccountOpened = (accountId: string) =>
    eventually(async () => (await prisma.ledgerAccount.findUnique({ where: { id: accountId }, select: { organizationId: true } }))?.organizationId);

  /** A command job exactly as the gateway's bus adds it, for a reply channel nobody listens on. */
  async function deliver(service: CommandService, name: string, payload: unknown, commandId: string): Promise<void> {
    const queueName = commandQueueName(service, commandLane(service, name));
    let queue = queues.get(queueName);
    if (!queue) {
      queue = new Queue(queueName, { connection: redis, prefix: queuePrefix });
      queues.set(queueName, queue);
    }
    const data: CommandJobData = {
      payload,
      meta: { requestId: newRequestId(), commandId, replyTo: `${queuePrefix}:replies:nobody`, deadline: Date.now() + 60000 },
    };
    await queue.add(name, data, { jobId: randomUUID(), removeOnComplete: true });
  }

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix, {
      PFS_TEST_DROP_FIRST_REPLY: 'organizations.create,funding-methods.provision,faucet.credit',
      // The gateway gives up on a lost reply after this long; well above a command's own time.
      COMMAND_TIMEOUT_MS: '3000',
    }, { apps: ['organization-service', 'ledger-service'] });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-once' });
    broker = await e2e.createOrganization('e2e once broker');
    await primaryAccountOpened(broker.accountId);
  }, 120000);

  afterAll(async () => {
    for (const queue of queues.values()) await queue.close();
    redis.disconnect();
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('a lost reply to POST /v1/organizations, then a retry with the same key: one organization, the original answer', async () => {
    const name = `Once ${randomUUID().slice(0, 8)}`;
    const request = { method: 'POST', key: broker.apiKey, headers: { 'Idempotency-Key': randomUUID() }, body: { name, entityType: 'BUSINESS', country: 'DE' } };

    const lost = await call('/v1/organizations', request);
    expectError(lost, 503, 'internal_error');
    // The command did commit: the organization exists although its creator was told 503.
    expect(await organizationsNamed(name)).toBe(1);

    const retried = await call('/v1/organizations', request);
    expect(retried.status).toBe(201);
    const created = retried.json<{ organizationId: string; name: string }>();
    expect(created.name).toBe(name);
    expect(await organizationsNamed(name)).toBe(1);
    expect(await prisma.organization.findFirst({ where: { name }, select: { id: true } })).toEqual({ id: created.organizationId });

    // The retry's answer is stored like any other: a third request replays it.
    const replayed = await call('/v1/organizations', request);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.json()).toEqual(created);
  }, 120000);

  it('a lost ledger reply to POST /v1/funding-methods, then a retry: provisioned (and announced) once', async () => {
    const request = { method: 'POST', key: broker.apiKey, headers: { 'Idempotency-Key': randomUUID() }, body: { asset: 'EUR' } };
    expectError(await call('/v1/funding-methods', request), 503, 'internal_error');
    expect(await provisionedEvents(broker.accountId)).toBe(1);

    const retried = await call('/v1/funding-methods', request);
    expect(retried.status).toBe(200);
    const methods = retried.json<{ data: Array<{ fundingMethodId: string }> }>().data;
    expect(methods).toHaveLength(1);
    expect(await prisma.ledgerFundingMethod.count({ where: { accountId: broker.accountId, asset: 'EUR' } })).toBe(1);
    // Without the command log the retry would have recorded the provisioning a second time.
    expect(await provisionedEvents(broker.accountId)).toBe(1);
  }, 120000);

  it('a command job delivered twice changes state once (organization service)', async () => {
    const name = `Twice ${randomUUID().slice(0, 8)}`;
    const payload = { callerOrganizationId: broker.organizationId, name, entityType: 'INDIVIDUAL', country: 'FR', email: null };
    const commandId = newId('command');
    await deliver('organization', 'organizations.create', payload, commandId);
    await deliver('organization', 'organizations.create', payload, commandId);
    await eventually(async () => ((await prisma.organizationCommandLog.count({ where: { commandId } })) === 1 ? true : undefined));
    // Both jobs are done once the queue is empty; then count.
    await eventually(async () => ((await queues.get(commandQueueName('organization', 'mutations'))?.count()) === 0 ? true : undefined));
    expect(await organizationsNamed(name)).toBe(1);
  }, 120000);

  it('a command job delivered twice changes state once (ledger)', async () => {
    const account = (await e2e.createOrganization('e2e once ledger')).accountId;
    const organizationId = await primaryAccountOpened(account);
    const commandId = newId('command');
    const payload = { organizationId, accountId: account, asset: 'USDC' };
    await Promise.all([deliver('ledger', 'funding-methods.provision', payload, commandId), deliver('ledger', 'funding-methods.provision', payload, commandId)]);
    await eventually(async () => ((await queues.get(commandQueueName('ledger', 'mutations'))?.count()) === 0 && (await provisionedEvents(account)) > 0 ? true : undefined));
    expect(await provisionedEvents(account)).toBe(1);
    // A new command (another id) is new work: provisioning again is answered, and recorded, again.
    await deliver('ledger', 'funding-methods.provision', payload, newId('command'));
    await eventually(async () => ((await provisionedEvents(account)) === 2 ? true : undefined));
  }, 120000);

  describe('money: the faucet', () => {
    let payer: CreatedOrganization;
    const balance = async (accountId: string) =>
      (await prisma.ledgerBalance.findUnique({ where: { accountId_asset: { accountId, asset: 'USDC' } } }))?.amount.toFixed() ?? '0';
    const credits = (accountId: string) => prisma.ledgerTransaction.count({ where: { accountId, type: 'CRYPTO_PAYIN' } });
    // The same request many times at once with one key is proven by the gateway's idempotency
    // (test/with-services/idempotency.spec.ts), and a faucet job delivered twice by the ledger
    // (apps/ledger-service/test/ledger-money.spec.ts); here only the reply lost after the commit.
    const faucet = (key: string, amount: string) => ({
      method: 'POST',
      key: payer.apiKey,
      headers: { 'Idempotency-Key': key },
      body: { accountId: payer.accountId, asset: 'USDC', amount, chainName: 'BASE_SEPOLIA' },
    });

    beforeAll(async () => {
      payer = await e2e.createOrganization('e2e once faucet');
      await primaryAccountOpened(payer.accountId);
      expect((await call('/v1/funding-methods', { method: 'POST', key: payer.apiKey, headers: { 'Idempotency-Key': randomUUID() }, body: { asset: 'USDC' } })).status).toBe(200);
    }, 120000);

    it('a lost reply (503), then a retry with the same key: credited once, the original transaction', async () => {
      const request = faucet(randomUUID(), '12.5');
      expectError(await call('/v1/transactions/faucet', request), 503, 'internal_error');
      expect(await balance(payer.accountId)).toBe('12.5');

      const retried = await call('/v1/transactions/faucet', request);
      expect(retried.status).toBe(200);
      const transaction = retried.json<{ transactionId: string; status: string }>();
      expect(transaction.status).toBe('COMPLETED');
      expect(await balance(payer.accountId)).toBe('12.5');
      expect(await credits(payer.accountId)).toBe(1);
      expect(await prisma.ledgerTransaction.findFirst({ where: { accountId: payer.accountId }, select: { id: true } })).toEqual({ id: transaction.transactionId });
    }, 120000);
  });
});
