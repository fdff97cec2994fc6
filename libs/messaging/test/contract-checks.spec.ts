import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { newId, newRequestId, type CommandJobData } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost } from '@pfs/persistence';
import { createLogger, readPlatformConfig, SecretBox } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import { PrismaCommandLog } from '../src';
import { useQueueUnderTest } from './support/queue-under-test';

const prefix = isolateQueues('msg-contract');

/*
 * A version skew between services fails loudly: a command whose payload does not match its
 * schema is refused with one error line, answered internal_error and failed without a retry;
 * a mutation runs through the command log. The ledger queue and schema, in one process.
 */

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const logger = createLogger('contract-test', 'info', sink);
const config = readPlatformConfig();
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma);
const commandLog = new PrismaCommandLog(host, 'ledger', SecretBox.derive('test', 'command log results'));
/** What each handler was given, so a test can see the validated payload; it "writes" in a transaction, as a use case does. */
const received: Array<{ command: string; payload: unknown }> = [];
const { bus, queue, queries } = useQueueUnderTest(
  'ledger',
  (command, payload) =>
    host.run(async () => {
      received.push({ command, payload });
      return { command };
    }),
  { prefix, logger, commandLog },
);

afterAll(async () => {
  await prisma.$disconnect();
});

describe('commands checked against the contract when consumed', () => {
  it('hands the use case the payload as its schema parses it, without fields it does not know', async () => {
    const organizationId = newId('organization');
    const accountId = newId('account');
    await bus.send('ledger', 'accounts.get', { organizationId, accountId, extra: 'from a newer sender' } as never, { requestId: newRequestId() });
    expect(received.find((entry) => (entry.payload as { accountId?: string }).accountId === accountId)).toEqual({
      command: 'accounts.get',
      payload: { organizationId, accountId },
    });
  });

  it('refuses a payload of another shape: one error line naming the field, internal_error, no retry', async () => {
    const requestId = newRequestId();
    const before = received.length;
    await expect(bus.send('ledger', 'accounts.get', { organizationId: 42 } as never, { requestId })).rejects.toMatchObject({ code: 'internal_error' });
    expect(received.length).toBe(before);
    const line = await eventually(async () => lines.find((entry) => entry.requestId === requestId && entry.msg === 'command refused: it does not match the contract'));
    expect(line).toMatchObject({ level: 'error', command: 'accounts.get' });
    expect(String(line.problem)).toMatch(/organizationId[\s\S]*accountId|accountId[\s\S]*organizationId/);
    const failed = await eventually(async () => (await queries.getFailed()).find((job) => (job.data as CommandJobData).meta.requestId === requestId));
    expect(failed.attemptsMade).toBe(1);
  });

  it('refuses a job without a command id, as a sender of another version would send it', async () => {
    const requestId = newRequestId();
    await queue.add('funding-methods.provision', {
      payload: { organizationId: newId('organization'), accountId: null, asset: 'EUR' },
      meta: { requestId, replyTo: `${prefix}:replies:nobody`, deadline: Date.now() + 60000 },
    }, { jobId: randomUUID() });
    const line = await eventually(async () => lines.find((entry) => entry.requestId === requestId && entry.msg === 'command refused: it does not match the contract'));
    expect(line.problem).toBe('meta.commandId is missing');
  });

  it('runs a mutation once per command id, a query every time', async () => {
    const commandId = newId('command');
    const payload = { organizationId: newId('organization'), accountId: null, asset: 'EUR' };
    const count = () => received.filter((entry) => (entry.payload as { organizationId?: string }).organizationId === payload.organizationId).length;
    await bus.send('ledger', 'funding-methods.provision', payload, { requestId: newRequestId(), commandId });
    await bus.send('ledger', 'funding-methods.provision', payload, { requestId: newRequestId(), commandId });
    expect(count()).toBe(1);
    const query = { organizationId: payload.organizationId, fundingMethodId: newId('fundingMethod') };
    await bus.send('ledger', 'funding-methods.get', query, { requestId: newRequestId(), commandId });
    await bus.send('ledger', 'funding-methods.get', query, { requestId: newRequestId(), commandId });
    expect(count()).toBe(3);
  });
});
