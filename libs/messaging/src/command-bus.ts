import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import {
  commandLane,
  commandQueueName,
  newId,
  newRequestId,
  type CommandJobData,
  type CommandLane,
  type CommandName,
  type CommandPayload,
  type CommandReplyMessage,
  type CommandResult,
  type CommandService,
} from '@pfs/contracts';
import { holdsDatabaseTransaction } from '@pfs/persistence';
import { currentDeadline, currentRequestId, currentTraceCarrier, inSpan, tracingEnabled } from '@pfs/platform';
import { createProducerConnection, createRedisConnection, type RedisClient } from './redis-connection';
import { CommandInsideTransactionError, RemoteDomainError, ServiceUnavailableError } from './messaging-errors';

export interface CommandBusOptions {
  redisUrl: string;
  prefix: string;
  /** How long a caller waits for a reply (default 5 s, `COMMAND_TIMEOUT_MS`). */
  timeoutMs: number;
  /** How often the number of live consumers per queue is refreshed. */
  workerCheckIntervalMs?: number;
  name?: string;
}

export interface SendOptions {
  requestId: string;
  /**
   * The command's id (see CommandMeta): the gateway passes the one of its request; without it
   * the command gets a fresh one, so only its own re-deliveries are recognized as repeats.
   */
  commandId?: string;
  timeoutMs?: number;
}

/**
 * Options for a question one service asks another while handling a command: it carries the
 * command's request id (one trace through both logs) and never outlives the command's deadline.
 */
export function withinCurrentCommand(): SendOptions {
  const deadline = currentDeadline();
  const requestId = currentRequestId() ?? newRequestId();
  return deadline === undefined ? { requestId } : { requestId, timeoutMs: Math.max(1, deadline - Date.now()) };
}

/** How a command ended for its sender, for the round-trip histogram. */
export type RoundTripOutcome = 'ok' | 'domain_error' | 'unavailable' | 'error';

export interface RoundTripListener {
  (service: CommandService, command: string, outcome: RoundTripOutcome, durationMs: number): void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Sends typed commands to the owning service's BullMQ queue and awaits the typed reply, which
 * the consumer publishes on this instance's reply channel. A queue with no live consumer fails
 * at once; a consumer that does not answer before the deadline fails with 503.
 */
export class CommandBus {
  private readonly instanceId = randomBytes(8).toString('hex');
  private sequence = 0;
  private readonly replyChannel: string;
  private readonly connection: RedisClient;
  private readonly subscriber: RedisClient;
  /** By queue name: a service's mutations and its queries travel on queues of their own. */
  private readonly queues = new Map<string, Queue>();
  private readonly pending = new Map<string, Pending>();
  private readonly liveWorkers = new Map<string, number>();
  private readonly workerChecks = new Map<string, Promise<void>>();
  private workerTimer?: NodeJS.Timeout;
  private refreshing = false;
  private started?: Promise<void>;
  private closing?: Promise<void>;
  /** Called once per send with how it ended (the gateway's command round-trip metric). */
  onRoundTrip?: RoundTripListener;

  constructor(private readonly options: CommandBusOptions) {
    const name = options.name ?? 'command-bus';
    this.replyChannel = `${options.prefix}:replies:${this.instanceId}`;
    this.connection = createProducerConnection(options.redisUrl, `${name}:${this.instanceId}`);
    this.subscriber = createRedisConnection(options.redisUrl, `${name}-replies:${this.instanceId}`);
  }

  start(): Promise<void> {
    this.started ??= (async () => {
      this.subscriber.on('message', (_channel: string, message: string) => this.onReply(message));
      await this.subscriber.subscribe(this.replyChannel);
      this.workerTimer = setInterval(() => void this.refreshWorkers(), this.options.workerCheckIntervalMs ?? 1000);
      this.workerTimer.unref();
    })();
    return this.started;
  }

  async send<S extends CommandService, N extends CommandName<S>>(
    service: S,
    name: N,
    payload: CommandPayload<S, N>,
    options: SendOptions,
  ): Promise<CommandResult<S, N>> {
    // A programming error, refused before anything is sent: see CommandInsideTransactionError.
    if (holdsDatabaseTransaction()) throw new CommandInsideTransactionError(service, name);
    const started = performance.now();
    try {
      const result = tracingEnabled()
        ? // A client span: the consumer's span hangs under it, through the carrier in the job's meta.
          await inSpan(`${service} ${name}`, { kind: 'client', requireParent: true, attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': commandQueueName(service, commandLane(service, name)), 'pfs.request_id': options.requestId } }, () =>
            this.dispatch(service, name, payload, options),
          )
        : await this.dispatch(service, name, payload, options);
      this.onRoundTrip?.(service, name, 'ok', performance.now() - started);
      return result;
    } catch (error) {
      this.onRoundTrip?.(service, name, roundTripOutcome(error), performance.now() - started);
      throw error;
    }
  }

  private async dispatch<S extends CommandService, N extends CommandName<S>>(
    service: S,
    name: N,
    payload: CommandPayload<S, N>,
    options: SendOptions,
  ): Promise<CommandResult<S, N>> {
    await this.start();
    const lane = commandLane(service, name);
    const queueName = commandQueueName(service, lane);
    // A count of zero may be stale (a consumer that has just started): look again before
    // failing, so a service that comes back is used at once and a dead one still fails fast.
    if (!this.liveWorkers.get(queueName)) await this.checkWorkers(queueName);
    if (this.liveWorkers.get(queueName) === 0) throw new ServiceUnavailableError(service);

    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    // Unique per bus instance; the random instance id makes it unique across replicas.
    const jobId = `${this.instanceId}-${(this.sequence += 1)}`;
    const data: CommandJobData<CommandPayload<S, N>> = {
      payload,
      meta: {
        requestId: options.requestId,
        commandId: options.commandId ?? newId('command'),
        replyTo: this.replyChannel,
        deadline: Date.now() + timeoutMs,
      },
    };
    const trace = currentTraceCarrier();
    if (trace) data.meta.trace = trace;
    const reply = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(jobId);
        reject(new ServiceUnavailableError(service));
      }, timeoutMs);
      this.pending.set(jobId, { resolve, reject, timer });
    });
    // Not awaited on its own: if Redis stalls, the deadline still answers the caller.
    this.queue(queueName)
      .add(name, data, {
        jobId,
        attempts: 2,
        backoff: { type: 'fixed', delay: 50 },
        removeOnComplete: true,
        removeOnFail: removeOnFail(lane),
      })
      .catch((error: unknown) => {
        const entry = this.pending.get(jobId);
        if (!entry) return;
        clearTimeout(entry.timer);
        this.pending.delete(jobId);
        entry.reject(error instanceof Error ? error : new Error(String(error)));
      });
    return reply as Promise<CommandResult<S, N>>;
  }

  /** Fails what is still waiting and releases the connections (once, however often called). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.workerTimer) clearInterval(this.workerTimer);
      for (const [jobId, entry] of this.pending) {
        clearTimeout(entry.timer);
        entry.reject(new Error('command bus closed'));
        this.pending.delete(jobId);
      }
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
      this.subscriber.disconnect();
      this.connection.disconnect();
    })();
    return this.closing;
  }

  /** Redis round trip, for readiness. */
  async ping(): Promise<void> {
    await this.connection.ping();
  }

  private queue(queueName: string): Queue {
    let queue = this.queues.get(queueName);
    if (!queue) {
      queue = new Queue(queueName, { connection: this.connection, prefix: this.options.prefix });
      this.queues.set(queueName, queue);
    }
    return queue;
  }

  /**
   * Every queue this bus has sent to, from one CLIENT LIST: BullMQ's own count lists the clients
   * once per queue, and that listing is most of an idle process's work and of Redis's.
   */
  private async refreshWorkers(): Promise<void> {
    const queueNames = [...this.liveWorkers.keys()];
    if (!queueNames.length || this.refreshing) return;
    this.refreshing = true;
    try {
      const listings = await clientListings(this.connection);
      for (const queueName of queueNames) {
        const names = workerClientNames(this.queue(queueName));
        // On a cluster each node lists its own clients: the queue's workers are on its node.
        const counts = listings.map((listing) => countNamed(listing, names));
        this.liveWorkers.set(queueName, Math.max(0, ...counts));
      }
    } catch {
      // Redis unreachable: keep the last known counts; sends time out instead.
    } finally {
      this.refreshing = false;
    }
  }

  /** One CLIENT LIST per queue at a time, however many sends are waiting on it. */
  private checkWorkers(queueName: string): Promise<void> {
    let check = this.workerChecks.get(queueName);
    if (!check) {
      check = this.queue(queueName)
        .getWorkersCount()
        .then(
          (count) => {
            this.liveWorkers.set(queueName, count);
          },
          () => undefined, // Redis unreachable: keep the last known count; sends time out instead.
        )
        .finally(() => this.workerChecks.delete(queueName));
      this.workerChecks.set(queueName, check);
    }
    return check;
  }

  private onReply(message: string): void {
    let parsed: CommandReplyMessage;
    try {
      parsed = JSON.parse(message) as CommandReplyMessage;
    } catch {
      return;
    }
    const entry = this.pending.get(parsed.jobId);
    if (!entry) return; // already timed out, or a duplicate reply after a retry
    clearTimeout(entry.timer);
    this.pending.delete(parsed.jobId);
    if (parsed.reply.ok) entry.resolve(parsed.reply.value);
    else if (parsed.reply.unavailable) entry.reject(new ServiceUnavailableError(parsed.reply.unavailable));
    else entry.reject(new RemoteDomainError(parsed.reply.error));
  }
}

/**
 * A failed mutation's job is deleted as it fails: its payload can carry a payee's account
 * number, IBAN or tax id, and deleting it is simpler and surer than sealing those fields from
 * the gateway to the use case. Nothing needs the job by then: its sender has had the reply
 * (the consumer answers before the last attempt fails, or the deadline answered 503), a retry
 * of the request is a new job under the same command id, commands have no dead-letter queue
 * (that is for events, which carry no such field), and the log line names the command, the job
 * and the error. A failed query (ids and filters only) stays an hour, to be looked at.
 */
function removeOnFail(lane: CommandLane): true | { age: number } {
  return lane === 'queries' ? { age: 3600 } : true;
}

/** The CLIENT LIST of the server, or of each primary of a cluster. */
async function clientListings(connection: RedisClient): Promise<string[]> {
  const nodes = connection instanceof Cluster ? connection.nodes('master') : [connection];
  return Promise.all(nodes.map((node) => node.client('LIST') as Promise<string>));
}

/** The connection names of a queue's workers, as BullMQ's getWorkers matches them. */
function workerClientNames(queue: Queue): { exact: string; prefix: string } {
  // BullMQ's own naming (protected, so reached through a cast) rather than a copy of its format.
  const name = (queue as unknown as { clientName(): string }).clientName();
  return { exact: name, prefix: `${name}:w:` };
}

function countNamed(listing: string, names: { exact: string; prefix: string }): number {
  let count = 0;
  for (const match of listing.matchAll(/(?:^| )name=(\S*)/gm)) {
    const name = match[1]!;
    if (name === names.exact || name.startsWith(names.prefix)) count += 1;
  }
  return count;
}

function roundTripOutcome(error: unknown): RoundTripOutcome {
  if (error instanceof ServiceUnavailableError) return 'unavailable';
  if (error instanceof RemoteDomainError) return 'domain_error';
  return 'error';
}
