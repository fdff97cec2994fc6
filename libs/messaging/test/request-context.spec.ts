import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { commandNames, newId, SystemClock, type EventEnvelope, type PingResult } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import {
  CommandBus,
  CommandConsumer,
  createRedisConnection,
  EventConsumer,
  OutboxRelay,
  PrismaEventOutbox,
  PrismaProcessedEventLog,
  type AnyCommandHandler,
  type CommandContext,
  type EventHandler,
} from '../src';
import { PassThroughCommandLog } from './support/ping-only-handlers';
import { otherLedgerHandlers } from './support/other-ledger-events';

const prefix = isolateQueues('msg-reqctx');

/*
 * One requestId finds every line of a request in every service: the gateway's id travels in
 * command metadata and in each event's envelope, and every hop logs under it. Here the hops are
 * real (BullMQ, PostgreSQL), in one process: a command, the event its handler writes, the relay
 * that moves it, the subscriber that handles it. The `webhook` schema's outbox and inbox and the
 * webhook-delivery queue are used by nothing else in this package's tests.
 */

const SCHEMA = 'webhook';
// Only `system.ping` is sent: the command log is never reached.
const COMMAND_SERVICE = 'quote' as const;

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const logger = createLogger('reqctx-test', 'debug', sink);

const config = readPlatformConfig();
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 4 });
const host = new PrismaTransactionHost(prisma);
const unitOfWork = new PrismaUnitOfWork(host);
const outbox = new PrismaEventOutbox(host, COMMAND_SERVICE, SCHEMA, new SystemClock());
// The poll takes the events at once: this test's outbox hands nothing off.
const relay = new OutboxRelay(prisma, { redisUrl: config.redisUrl, prefix, schema: SCHEMA, logger, pollGraceMs: 0 });
const redis = createRedisConnection(config.redisUrl, 'reqctx-test');
const ledgerEvents = new Queue('ledger-events', { connection: redis, prefix });
const commandQueue = new Queue(`${COMMAND_SERVICE}-queries`, { connection: redis, prefix });

/** The command handler writes an event, as a use case does, inside its unit of work. */
function handlerFor(command: string): AnyCommandHandler<typeof COMMAND_SERVICE> {
  return {
    command,
    async execute(_payload: unknown, context: CommandContext): Promise<PingResult> {
      logger.info({ step: 'command handler' }, 'handling the command');
      await unitOfWork.run(() =>
        outbox.append('organization.created', {
          organizationId: newId('organization'),
          primaryAccountId: newId('account'),
          name: `request ${context.requestId}`,
          parentOrganizationId: null,
          referrerOrganizationId: null,
          createdAt: new Date().toISOString(),
        }),
      );
      return { service: COMMAND_SERVICE, time: new Date().toISOString() };
    },
  } as AnyCommandHandler<typeof COMMAND_SERVICE>;
}

const handled: EventEnvelope[] = [];
class LoggingSubscriber implements EventHandler<'organization.created'> {
  readonly event = 'organization.created' as const;
  async handle(event: EventEnvelope<'organization.created'>): Promise<void> {
    logger.info({ step: 'subscriber' }, 'handling the event');
    handled.push(event);
  }
}

const commands = new CommandConsumer(COMMAND_SERVICE, commandNames(COMMAND_SERVICE).map(handlerFor), {
  redisUrl: config.redisUrl,
  prefix,
  logger,
  commandLog: new PassThroughCommandLog(),
});
const events = new EventConsumer('ledger', [new LoggingSubscriber(), ...otherLedgerHandlers('organization.created')], unitOfWork, new PrismaProcessedEventLog(host, SCHEMA), {
  redisUrl: config.redisUrl,
  prefix,
  logger,
});
const bus = new CommandBus({ redisUrl: config.redisUrl, prefix, timeoutMs: 5000, name: 'reqctx-bus' });

beforeAll(async () => {
  await Promise.all([commands.start(), events.start(), bus.start()]);
});

afterAll(async () => {
  await Promise.all([commands.close(), events.close(), relay.stop(), bus.close()]);
  for (const queue of [ledgerEvents, commandQueue]) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  redis.disconnect();
  await prisma.$disconnect();
});

describe('the request id across queue hops', () => {
  it('is on every line of the command, the relay and the subscriber', async () => {
    const requestId = `req_${randomBytes(16).toString('hex')}`;
    const other = `req_${randomBytes(16).toString('hex')}`;

    await bus.send(COMMAND_SERVICE, 'system.ping', {}, { requestId });
    await bus.send(COMMAND_SERVICE, 'system.ping', {}, { requestId: other });
    await relay.drain();
    await eventually(async () => (handled.filter((event) => [requestId, other].includes(event.requestId ?? '')).length === 2 ? true : undefined));
    // The consumer logs "event handled" after its unit of work: let it.
    await eventually(async () => (lines.filter((line) => line.msg === 'event handled').length >= 2 ? true : undefined));

    const mine = lines.filter((line) => line.requestId === requestId);
    // The relay logs after publishing, so its line may come before or after the subscriber's.
    expect(mine.map((line) => line.msg).filter((msg) => msg !== 'event relayed')).toEqual([
      'handling the command',
      'command handled',
      'handling the event',
      'event handled',
    ]);
    expect(mine.filter((line) => line.msg === 'event relayed')).toHaveLength(1);
    const eventId = handled.find((event) => event.requestId === requestId)?.id;
    expect(mine.slice(2).map((line) => line.eventId ?? eventId)).toEqual([eventId, eventId, eventId]);
    // Every line the hops wrote carries a request id: none was written outside a context.
    expect(lines.filter((line) => typeof line.requestId !== 'string')).toEqual([]);
    expect(lines.filter((line) => line.requestId === other)).toHaveLength(5);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    // At debug level too, no hop logs what a command or an event carries: the event's data
    // (its name holds the request id) appears on no line.
    expect(lines.filter((line) => line.level === 'debug').length).toBeGreaterThan(0);
    expect(lines.filter((line) => JSON.stringify(line).includes(`request ${requestId}`))).toEqual([]);
    expect(lines.filter((line) => 'payload' in line || 'data' in line)).toEqual([]);
  });
});
