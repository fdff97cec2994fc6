import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Big, commandQueueName } from '@pfs/contracts';
import { createRedisConnection, QueueDepthReader } from '@pfs/messaging';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, ledgerInvariantViolations, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { send, type Answer } from '../support/http-client';
import { startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-kill');

/*
 * Kill test, the gateway, the organization service and the ledger as their own processes: `kill -9` the ledger in the middle of a
 * burst of faucet calls, each with its own Idempotency-Key; restart it; retry every call that
 * did not get a 2xx with its key. The ledger must hold exactly one credit per key, whatever
 * was committed, rolled back or left in the queue when it died, and its books must balance.
 */
describe('kill -9 the ledger during a burst of faucet calls (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let payer: CreatedOrganization;

  beforeAll(async () => {
    // The default command timeout (5 s): calls caught by the kill wait it out, and on a busy
    // machine the ledger's answers after the restart still come within it.
    e2e = await startE2eStack(queuePrefix, {}, { apps: ['organization-service', 'ledger-service'] });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-kill' });
    payer = await e2e.createOrganization('e2e kill payer');
    await eventually(async () => (await prisma.ledgerAccount.findUnique({ where: { id: payer.accountId }, select: { id: true } }))?.id, 30000);
    const provisioned = await send(e2e.baseUrl, '/v1/funding-methods', { method: 'POST', key: payer.apiKey, headers: { 'Idempotency-Key': randomUUID() }, body: { asset: 'USDC' } });
    expect(provisioned.status).toBe(200);
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  const credit = (key: string): Promise<Answer | Error> =>
    send(e2e.baseUrl, '/v1/transactions/faucet', {
      method: 'POST',
      key: payer.apiKey,
      headers: { 'Idempotency-Key': key },
      body: { accountId: payer.accountId, asset: 'USDC', amount: '1.5', chainName: 'TRON_NILE' },
    }).catch((error: Error) => error);
  const ok = (answer: Answer | Error | undefined): answer is Answer => !!answer && 'status' in answer && answer.status >= 200 && answer.status < 300;
  const committed = () => prisma.ledgerTransaction.count({ where: { accountId: payer.accountId, type: 'CRYPTO_PAYIN' } });

  it('holds exactly one credit per key after the crash and the retries, and the books balance', async () => {
    const answers = new Map<string, Answer | Error>();
    const pending: Array<Promise<void>> = [];
    const issue = () => {
      const key = randomUUID();
      pending.push(credit(key).then((answer) => void answers.set(key, answer)));
    };

    // The burst: a call every 10 ms. Once some credits are committed the ledger is killed, and
    // the burst goes on until 20 more calls have been sent into the outage.
    let killed: Promise<void> | undefined;
    let sentAfterKill = 0;
    while (sentAfterKill < 20) {
      issue();
      if (killed) sentAfterKill += 1;
      else if ((await committed()) >= 10) killed = e2e.stack.stopApp('ledger-service', 'SIGKILL');
      await sleep(10);
    }
    await killed;
    // The jobs the dead ledger held: BullMQ's stalled-job check gives them to the next ledger.
    const redis = createRedisConnection(testRedisUrl(), 'ledger-kill-test');
    const commands = new Queue(commandQueueName('ledger', 'mutations'), { connection: redis, prefix: queuePrefix });
    const leftOver = (await commands.getJobs(['active'])).map((job) => job.id as string);
    await Promise.all(pending);
    const keys = [...answers.keys()];
    const failed = keys.filter((key) => !ok(answers.get(key)));
    expect(failed.length).toBeGreaterThanOrEqual(20);

    await e2e.stack.startApp('ledger-service');
    // Every call without a 2xx is retried with its own key until it gets one: the first until the
    // new ledger answers, then the rest, a few at a time.
    const retry = async (key: string) => {
      let last: Answer | Error | undefined;
      const answer = await eventually(async () => {
        last = await credit(key);
        return ok(last) ? last : undefined;
      }, 120000, 250).catch((error: Error) => {
        // A fetch error comes from another realm than this test's: not `instanceof Error` here.
        const described = last && 'status' in last ? `${last.status} ${last.text.slice(0, 200)}` : `${String(last)} ${String((last as { cause?: unknown } | undefined)?.cause)}`;
        const app = e2e.stack.apps.get('gateway');
        const gateway = [`exit ${String(app?.process.exitCode)} ${String(app?.process.signalCode)}`, ...(app?.output ?? []).slice(-8)];
        throw new Error(`${error.message}; last answer: ${described}; the gateway's last lines: ${gateway.join('\n')}`);
      });
      answers.set(key, answer);
    };
    await retry(failed[0] as string);
    for (let next = 1; next < failed.length; next += 8) await Promise.all(failed.slice(next, next + 8).map(retry));

    const transactionIds = keys.map((key) => (answers.get(key) as Answer).json<{ transactionId: string; status: string }>());
    expect(transactionIds.every((transaction) => transaction.status === 'COMPLETED')).toBe(true);
    expect(new Set(transactionIds.map((transaction) => transaction.transactionId)).size).toBe(keys.length);
    // Let anything the crash left in the queue run (it is refused as stale or found in the command
    // log). BullMQ's stalled-job check would hand the dead ledger's jobs over once their locks
    // expire (30 s) and two of its 30 s passes have seen them; the test does that at once, as it would.
    try {
      for (const id of leftOver) {
        const lockKey = `${commands.toKey(id)}:lock`;
        for (let attempt = 1; ; attempt++) {
          const job = await commands.getJob(id);
          if (!job || (await job.getState()) !== 'active') break;
          // On a busy machine the dead ledger's lock may have expired by now: take it over, as the
          // stalled-job check does, then move the job with whichever lock holds it.
          await redis.set(lockKey, 'ledger-kill-test', 'PX', 30000, 'NX');
          try {
            await job.moveToWait((await redis.get(lockKey)) ?? 'ledger-kill-test');
            break;
          } catch (error) {
            // The lock expired between the read and the move: again.
            if (attempt >= 5 || !String((error as Error).message).includes('Missing lock')) throw error;
          }
        }
      }
    } finally {
      await commands.close();
      redis.disconnect();
    }
    const depth = new QueueDepthReader({ redisUrl: testRedisUrl(), prefix: queuePrefix, name: 'ledger-kill-test' }, ['ledger-commands']);
    try {
      await eventually(async () => ((await depth.read()).every((entry) => entry.state === 'failed' || entry.count === 0) ? true : undefined), 60000, 100);
    } finally {
      await depth.close();
    }
    expect(await committed()).toBe(keys.length);
    const rows = await prisma.ledgerTransaction.findMany({ where: { accountId: payer.accountId, type: 'CRYPTO_PAYIN' }, select: { id: true } });
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set(transactionIds.map((transaction) => transaction.transactionId)));
    const balance = await prisma.ledgerBalance.findUnique({ where: { accountId_asset: { accountId: payer.accountId, asset: 'USDC' } } });
    expect(balance?.amount.toFixed()).toBe(new Big('1.5').times(keys.length).toFixed());
    expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
  }, 300000);
});
