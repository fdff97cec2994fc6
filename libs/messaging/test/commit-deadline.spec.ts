import { randomBytes } from 'node:crypto';
import { newId, type PingResult } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, readPlatformConfig, runWithRequestId } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import {
  assertCommandDeadline,
  commandTransactionLimits,
  COMMIT_MARGIN_MS,
  CommandBus,
  CommandConsumer,
  CommandDeadlineExceededError,
  PrismaProcessedEventLog,
  ServiceUnavailableError,
  type CommandContext,
} from '../src';
import { PassThroughCommandLog, pingOnlyHandlers } from './support/ping-only-handlers';

const prefix = isolateQueues('msg-deadline');

/*
 * A command's sender stops waiting at its deadline and answers 503, which releases the client's
 * idempotency key. Work that commits after that would run twice on the client's retry, so the
 * services' unit of work refuses to commit past the deadline (minus the reply's margin). Real
 * BullMQ and PostgreSQL; the `delivery` schema's inbox is the table written.
 */
const config = readPlatformConfig();
const logger = createLogger('deadline-test', 'silent');
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma, { beforeCommit: () => assertCommandDeadline() });
const unitOfWork = new PrismaUnitOfWork(host);
const inbox = new PrismaProcessedEventLog(host, 'delivery');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stored = (eventId: string) => prisma.deliveryProcessedEvent.count({ where: { eventId } });

describe('the commit deadline of a command', () => {
  const work = new Map<string, { eventId: string; holdMs: number }>();
  const bus = new CommandBus({ redisUrl: config.redisUrl, prefix, timeoutMs: 5000, workerCheckIntervalMs: 100, name: 'deadline-bus' });
  const consumer = new CommandConsumer(
    'quote',
    // A use case: one transaction that writes, then takes `holdMs` before it would commit.
    pingOnlyHandlers('quote', async (context: CommandContext): Promise<PingResult> => {
      const job = work.get(context.requestId);
      if (!job) throw new Error('unexpected request');
      await unitOfWork.run(async () => {
        await inbox.markProcessed(job.eventId);
        await sleep(job.holdMs);
      });
      return { service: 'quote', time: new Date().toISOString() };
    }),
    { redisUrl: config.redisUrl, prefix, logger, commandLog: new PassThroughCommandLog() },
  );
  const outcomes: string[] = [];

  beforeAll(async () => {
    consumer.onOutcome = (outcome) => outcomes.push(outcome);
    await consumer.start();
  });

  afterAll(async () => {
    await consumer.close();
    await bus.close();
    await prisma.$disconnect();
  });

  const send = (holdMs: number, timeoutMs: number) => {
    const requestId = `req_${randomBytes(16).toString('hex')}`;
    const eventId = newId('event');
    work.set(requestId, { eventId, holdMs });
    return { eventId, reply: bus.send('quote', 'system.ping', {}, { requestId, timeoutMs }) };
  };

  it('commits work that finishes in time', async () => {
    // In time means within the services' command timeout (COMMAND_TIMEOUT_MS, 5 s by default),
    // the contract; a tighter one would test how fast this machine runs the round trip.
    const { eventId, reply } = send(0, 5000);
    await expect(reply).resolves.toMatchObject({ service: 'quote' });
    expect(await stored(eventId)).toBe(1);
  });

  it('rolls back work that would commit after the sender stopped waiting, and answers nobody', async () => {
    const before = outcomes.length;
    const { eventId, reply } = send(900, 600);
    await expect(reply).rejects.toBeInstanceOf(ServiceUnavailableError);
    await eventually(async () => (outcomes.length > before ? true : undefined));
    expect(outcomes.slice(before)).toEqual(['stale']);
    expect(await stored(eventId)).toBe(0);
  });

  it('leaves the reply its margin: a commit closer than that to the deadline is refused too', () => {
    const deadline = 10_000;
    runWithRequestId('req_x', () => expect(() => assertCommandDeadline(() => deadline - COMMIT_MARGIN_MS)).not.toThrow(), deadline);
    runWithRequestId('req_x', () => expect(() => assertCommandDeadline(() => deadline - COMMIT_MARGIN_MS + 1)).toThrow(CommandDeadlineExceededError), deadline);
    // Outside a command (event handlers, the CLI) there is no deadline.
    runWithRequestId('req_x', () => expect(() => assertCommandDeadline(() => Number.MAX_SAFE_INTEGER)).not.toThrow());
  });

  it('lets a command’s transaction wait for a connection and run as long as its sender waits, never less than the defaults', () => {
    const deadline = 600_000;
    runWithRequestId('req_x', () => expect(commandTransactionLimits(() => 0)).toEqual({ maxWaitMs: 600_000, timeoutMs: 600_000 }), deadline);
    runWithRequestId('req_x', () => expect(commandTransactionLimits(() => deadline - 1000)).toEqual({ maxWaitMs: 5000, timeoutMs: 10000 }), deadline);
    runWithRequestId('req_x', () => expect(commandTransactionLimits(() => 0)).toEqual({ maxWaitMs: 5000, timeoutMs: 10000 }));
  });

  it('a transaction waits for a pooled connection while its command’s deadline allows, past the 5 s default', async () => {
    const single = createPrismaClient({ databaseUrl: readPlatformConfig().databaseUrl, poolSize: 1, applicationName: 'commit-deadline-pool' });
    const patient = new PrismaTransactionHost(single, { limits: () => commandTransactionLimits() });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // The only connection, held for 6 s by another transaction.
      const holder = patient.run(async () => {
        await patient.client.$queryRaw`SELECT 1`;
        await held;
      });
      setTimeout(release, 6000);
      const waited = await runWithRequestId('req_x', () => patient.run(async () => (await patient.client.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one`)[0]?.one), Date.now() + 60_000);
      await holder;
      expect(waited).toBe(1);
    } finally {
      await single.$disconnect();
    }
  }, 30_000);
});
