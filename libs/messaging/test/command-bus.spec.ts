import { randomBytes } from 'node:crypto';
import { commandQueueName, DomainError, type CommandReplyMessage, type CommandService, type PingResult } from '@pfs/contracts';
import { createLogger, currentRequestId, readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createPrismaClient, PrismaTransactionHost } from '@pfs/persistence';
import {
  CommandBus,
  CommandConsumer,
  CommandInsideTransactionError,
  RemoteDomainError,
  ServiceUnavailableError,
  type CommandConsumerOptions,
  type CommandContext,
} from '../src';
import { failedFast } from './support/failed-fast';
import { PassThroughCommandLog, pingOnlyHandlers } from './support/ping-only-handlers';
import { recordWrites } from './support/socket-writes';

const prefix = isolateQueues('msg-cmd');

// Real BullMQ queues under this file's prefix; the handlers are hand-written for the `system.ping`
// job of services whose queues nothing else consumes here.

type Behaviour = (context: CommandContext) => Promise<PingResult>;

class QuoteLockedError extends DomainError {
  readonly internalDetail = 'row 42 locked by transaction 7';
  constructor(quoteId: string) {
    super('quote_already_used', `Quote ${quoteId} has already been used.`);
  }
}

const config = readPlatformConfig();
const logger = createLogger('messaging-test', 'silent');
const consumers: Array<CommandConsumer<CommandService>> = [];
const buses: CommandBus[] = [];

function requestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

/** The timeout of a probe for fast failure: a probe that queued its job waits this long, then is tried again. */
const FAST_FAIL_PROBE_TIMEOUT_MS = 200;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function pong(service: CommandService): PingResult {
  return { service, time: new Date().toISOString() };
}

/** The tests that need the quote queue idle (nobody consuming at first) use it under this prefix of their own. */
const idlePrefix = `${prefix}-idle`;

function newBus(timeoutMs = 5000, busPrefix = prefix): CommandBus {
  const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: busPrefix, timeoutMs, workerCheckIntervalMs: 100, name: 'test-bus' });
  buses.push(bus);
  return bus;
}

/** A consumer whose `system.ping` handler does what the test registered for the request id. */
async function startConsumer(
  service: CommandService,
  behaviours: Map<string, Behaviour>,
  options: Partial<CommandConsumerOptions> = {},
): Promise<CommandConsumer<CommandService>> {
  const consumer = new CommandConsumer<CommandService>(
    service,
    pingOnlyHandlers(service, async (context) => {
      const behaviour = behaviours.get(context.requestId);
      if (!behaviour) throw new Error(`no behaviour for ${context.requestId}`);
      return behaviour(context);
    }),
    { redisUrl: config.redisUrl, prefix, logger, commandLog: new PassThroughCommandLog(), ...options },
  );
  consumers.push(consumer);
  await consumer.start();
  return consumer;
}

/** Every reply published under this prefix, as it travels over Redis. */
async function captureReplies(replyPrefix = prefix): Promise<{ messages: CommandReplyMessage[]; close(): void }> {
  const redis = new Redis(config.redisUrl);
  const messages: CommandReplyMessage[] = [];
  redis.on('pmessage', (_pattern: string, _channel: string, message: string) => {
    messages.push(JSON.parse(message) as CommandReplyMessage);
  });
  await redis.psubscribe(`${replyPrefix}:replies:*`);
  return { messages, close: () => redis.disconnect() };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

afterAll(async () => {
  await Promise.all(consumers.map((consumer) => consumer.close()));
  await Promise.all(buses.map((bus) => bus.close()));
});

describe('commands with replies over BullMQ', () => {
  const behaviours = new Map<string, Behaviour>();
  const outcomes: string[] = [];
  let bus: CommandBus;

  beforeAll(async () => {
    bus = newBus();
    const consumer = await startConsumer('quote', behaviours);
    consumer.onOutcome = (outcome) => outcomes.push(outcome);
  });

  /** The handler of a timed-out send ran to its end, or its job reached the consumer past its deadline (a busy machine) and was skipped. */
  const settled = (finished: () => boolean, outcomesBefore: number) =>
    eventually(async () => (finished() || outcomes.slice(outcomesBefore).includes('stale') ? true : undefined));

  it('returns the handler value to the sender', async () => {
    const id = requestId();
    behaviours.set(id, async () => ({ service: 'quote', time: '2026-11-21T04:44:09.123Z' }));

    await expect(bus.send('quote', 'system.ping', {}, { requestId: id })).resolves.toEqual({
      service: 'quote',
      time: '2026-11-21T04:44:09.123Z',
    });
  });

  it('refuses to send while the caller holds a database transaction, and sends once it has committed', async () => {
    const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 1 });
    const host = new PrismaTransactionHost(prisma);
    try {
      let handled = 0;
      const id = requestId();
      behaviours.set(id, async () => {
        handled += 1;
        return pong('quote');
      });
      const inside = host.run(() => bus.send('quote', 'system.ping', {}, { requestId: id }));
      await expect(inside).rejects.toBeInstanceOf(CommandInsideTransactionError);
      await expect(host.run(async () => 'committed').then(() => bus.send('quote', 'system.ping', {}, { requestId: id }))).resolves.toMatchObject({
        service: 'quote',
      });
      expect(handled).toBe(1);
    } finally {
      await prisma.$disconnect();
    }
  });

  it('hands the request id to the handler, in its context and in the async context', async () => {
    const id = requestId();
    const seen: Array<string | undefined> = [];
    behaviours.set(id, async (context) => {
      seen.push(context.requestId);
      await sleep(5);
      seen.push(currentRequestId());
      return pong('quote');
    });

    await bus.send('quote', 'system.ping', {}, { requestId: id });
    expect(seen).toEqual([id, id]);
  });

  it('sends a domain error back as {code, message} only, raised as RemoteDomainError, without retrying', async () => {
    const replies = await captureReplies();
    try {
      const id = requestId();
      let calls = 0;
      behaviours.set(id, async () => {
        calls += 1;
        throw new QuoteLockedError('quote_1');
      });

      const error = await rejection(bus.send('quote', 'system.ping', {}, { requestId: id }));

      expect(error).toBeInstanceOf(RemoteDomainError);
      expect(error).not.toBeInstanceOf(QuoteLockedError);
      expect((error as RemoteDomainError).toPayload()).toEqual({
        code: 'quote_already_used',
        message: 'Quote quote_1 has already been used.',
      });
      expect(error).not.toHaveProperty('internalDetail');
      const wire = await eventually(async () => replies.messages.find((message) => !message.reply.ok));
      expect(wire.reply).toEqual({ ok: false, error: { code: 'quote_already_used', message: 'Quote quote_1 has already been used.' } });
      expect(calls).toBe(1);
    } finally {
      replies.close();
    }
  });

  it('passes on that a service the handler asked was unavailable: the sender raises ServiceUnavailableError naming that service', async () => {
    const replies = await captureReplies();
    try {
      const id = requestId();
      behaviours.set(id, async () => {
        throw new ServiceUnavailableError('ledger');
      });

      const error = await rejection(bus.send('quote', 'system.ping', {}, { requestId: id }));

      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect((error as ServiceUnavailableError).service).toBe('ledger');
      expect((error as ServiceUnavailableError).toPayload()).toEqual({ code: 'internal_error', message: 'The ledger service is unavailable; try again shortly.' });
      const wire = await eventually(async () => replies.messages.find((message) => !message.reply.ok));
      expect(wire.reply).toEqual({ ok: false, error: { code: 'internal_error', message: 'The ledger service is unavailable; try again shortly.' }, unavailable: 'ledger' });
    } finally {
      replies.close();
    }
  });

  it('retries an unexpected error, then answers internal_error without leaking its message', async () => {
    const replies = await captureReplies();
    try {
      const id = requestId();
      let calls = 0;
      behaviours.set(id, async () => {
        calls += 1;
        throw new Error('relation "ledger.secret_table" does not exist');
      });

      const error = await rejection(bus.send('quote', 'system.ping', {}, { requestId: id }));

      expect(error).toBeInstanceOf(RemoteDomainError);
      expect((error as RemoteDomainError).code).toBe('internal_error');
      expect(error.message).not.toContain('secret_table');
      expect(calls).toBe(2);
      const wire = await eventually(async () => replies.messages.find((message) => !message.reply.ok));
      expect(JSON.stringify(wire)).not.toContain('secret_table');
      // One reply only: the first attempt failed silently and was retried.
      expect(replies.messages).toHaveLength(1);
    } finally {
      replies.close();
    }
  });

  it('answers the value when the retry of an unexpected error succeeds', async () => {
    const id = requestId();
    let calls = 0;
    behaviours.set(id, async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection reset');
      return pong('quote');
    });

    await expect(bus.send('quote', 'system.ping', {}, { requestId: id })).resolves.toMatchObject({ service: 'quote' });
    expect(calls).toBe(2);
  });

  it('gives up with ServiceUnavailableError (internal_error, naming the service) after the configured timeout', async () => {
    const impatient = newBus(400);
    const id = requestId();
    let finished = false;
    behaviours.set(id, async () => {
      await sleep(1500);
      finished = true;
      return pong('quote');
    });

    const outcomesBefore = outcomes.length;
    const started = Date.now();
    const error = await rejection(impatient.send('quote', 'system.ping', {}, { requestId: id }));
    const waited = Date.now() - started;

    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).code).toBe('internal_error');
    expect(error.message).toContain('quote service');
    expect(waited).toBeGreaterThanOrEqual(390);
    // Answered at its own timeout, not when the handler finished (that would set `finished`).
    expect(finished).toBe(false);

    // The late reply finds nobody waiting and changes nothing; the bus keeps working.
    await settled(() => finished, outcomesBefore);
    const next = requestId();
    behaviours.set(next, async () => pong('quote'));
    await expect(impatient.send('quote', 'system.ping', {}, { requestId: next })).resolves.toMatchObject({ service: 'quote' });
  });

  it('honours a per-command timeout', async () => {
    const id = requestId();
    let finished = false;
    behaviours.set(id, async () => {
      await sleep(800);
      finished = true;
      return pong('quote');
    });

    const outcomesBefore = outcomes.length;
    const started = Date.now();
    const error = await rejection(bus.send('quote', 'system.ping', {}, { requestId: id, timeoutMs: 200 }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    // The 200 ms timeout answered, not the bus's 5 s default, nor the handler's end.
    expect(finished).toBe(false);
    await settled(() => finished, outcomesBefore);
  });
});

describe('a queue nobody consumes', () => {
  it('fails fast, without waiting for its timeout, naming the service', async () => {
    const bus = newBus(5000);
    const id = requestId();
    // Fast means refused before its job is queued (a queued job waits out the 5 s timeout).
    const error = await failedFast(id, () => bus.send('webhook-delivery', 'system.ping', {}, { requestId: id }));

    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error?.toPayload()).toEqual({
      code: 'internal_error',
      message: 'The webhook-delivery service is unavailable; try again shortly.',
    });
  });

  it('is used as soon as a consumer starts, and fails fast again once it stops', async () => {
    const bus = newBus(5000, idlePrefix);
    const behaviours = new Map<string, Behaviour>();
    const first = requestId();
    await expect(bus.send('quote', 'system.ping', {}, { requestId: first })).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );

    const consumer = await startConsumer('quote', behaviours, { prefix: idlePrefix });
    const second = requestId();
    behaviours.set(second, async () => pong('quote'));
    await expect(bus.send('quote', 'system.ping', {}, { requestId: second })).resolves.toMatchObject({
      service: 'quote',
    });

    await consumer.close();
    // Fast means refused before its job is queued: a send that queues and waits out its timeout does not count.
    await eventually(
      async () => {
        const id = requestId();
        return (await failedFast(id, () => bus.send('quote', 'system.ping', {}, { requestId: id, timeoutMs: FAST_FAIL_PROBE_TIMEOUT_MS }))) ? true : undefined;
      },
      10000,
    );
  });
});

describe('a command that waited past its deadline', () => {
  // The probes above leave jobs nobody took in the same queue: they must not count here.
  beforeAll(async () => {
    const queue = new Queue(commandQueueName('quote', 'queries'), { connection: { url: config.redisUrl }, prefix: idlePrefix });
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('is skipped by the consumer: the handler never runs and nobody is answered', async () => {
    const bus = newBus(5000, idlePrefix);
    const behaviours = new Map<string, Behaviour>();
    const consumer = await startConsumer('quote', behaviours, { concurrency: 1, prefix: idlePrefix });
    const outcomes: string[] = [];
    consumer.onOutcome = (outcome) => outcomes.push(outcome);
    const replies = await captureReplies(idlePrefix);
    try {
      const slow = requestId();
      const late = requestId();
      let lateRuns = 0;
      behaviours.set(slow, async () => {
        await sleep(600);
        return pong('quote');
      });
      behaviours.set(late, async () => {
        lateRuns += 1;
        return pong('quote');
      });

      const slowReply = bus.send('quote', 'system.ping', {}, { requestId: slow });
      await sleep(50);
      // Queued behind the slow one on a single-slot consumer: its sender gives up first.
      const lateError = await rejection(bus.send('quote', 'system.ping', {}, { requestId: late, timeoutMs: 200 }));
      expect(lateError).toBeInstanceOf(ServiceUnavailableError);
      await expect(slowReply).resolves.toMatchObject({ service: 'quote' });

      await eventually(async () => (outcomes.includes('stale') ? true : undefined));
      expect(outcomes).toEqual(['ok', 'stale']);
      expect(lateRuns).toBe(0);
      expect(replies.messages).toHaveLength(1);
    } finally {
      replies.close();
    }
  });
});

describe("a command's reply", () => {
  it("leaves the consumer in one write with its job's completion, on the connection BullMQ completes the job on", async () => {
    const behaviours = new Map<string, Behaviour>();
    const bus = newBus();
    const consumer = await startConsumer('organization', behaviours);
    const connection = (consumer as unknown as { connections: Map<string, Redis> }).connections.get(consumer.queueNameOf('system.ping'));
    if (!connection) throw new Error('no connection for the ping lane');
    // What the lane's connection hands to the operating system once the handler runs, write by write.
    let writes: string[] = [];
    const id = requestId();
    behaviours.set(id, async () => {
      writes = recordWrites(connection);
      return pong('organization');
    });

    await expect(bus.send('organization', 'system.ping', {}, { requestId: id })).resolves.toMatchObject({ service: 'organization' });

    // BullMQ's moveToFinished names the field the job's result is stored under.
    const completion = (text: string): boolean => text.includes('returnvalue');
    await eventually(async () => (writes.some(completion) ? true : undefined));
    const withReply = writes.filter((text) => text.includes('publish'));
    expect(withReply).toHaveLength(1);
    expect(completion(withReply[0] as string)).toBe(true);
  });
});
