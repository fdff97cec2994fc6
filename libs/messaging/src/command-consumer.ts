import { UnrecoverableError, Worker, type Job } from 'bullmq';
import {
  commandDefinition,
  commandLane,
  commandLanes,
  commandNames,
  commandQueueName,
  isDomainError,
  parseCommandPayload,
  type CommandJobData,
  type CommandName,
  type CommandPayload,
  type CommandReply,
  type CommandReplyMessage,
  type CommandResult,
  type CommandService,
} from '@pfs/contracts';
import { annotateSpan, inSpan, runWithRequestId, tracingEnabled, type Logger } from '@pfs/platform';
import type { CommandLog } from './command-log';
import { buildHandlerRegistry } from './handler-registry';
import { CommandDeadlineExceededError, ServiceUnavailableError } from './messaging-errors';
import { createRedisConnection, type RedisClient } from './redis-connection';

export interface CommandContext {
  requestId: string;
  commandId: string;
}

/** One command of one queue. Handlers are adapters: they call a use case and return its view. */
export interface CommandHandler<S extends CommandService, N extends CommandName<S> = CommandName<S>> {
  readonly command: N;
  execute(payload: CommandPayload<S, N>, context: CommandContext): Promise<CommandResult<S, N>>;
}

export type AnyCommandHandler<S extends CommandService> = { [N in CommandName<S>]: CommandHandler<S, N> }[CommandName<S>];

export interface CommandConsumerOptions {
  redisUrl: string;
  prefix: string;
  concurrency?: number;
  logger: Logger;
  /** Required when the queue has mutations: they run at most once per command id. */
  commandLog?: CommandLog;
  /**
   * Test hook (refused in production): the first reply to each listed command is not
   * published, as if it were lost, so tests can prove that a retry returns the stored result.
   */
  dropFirstReplyOf?: readonly string[];
}

export interface CommandOutcomeListener {
  (outcome: 'ok' | 'domain_error' | 'failed' | 'stale', command: string, durationMs: number): void;
}

/**
 * Consumes a service's command queues, one per lane (mutations, queries: see `commandLane`),
 * each with workers of its own: one handler per job name, the reply published on the sender's
 * channel. An unexpected error is rethrown so BullMQ retries; the sender gets `internal_error`
 * only when the last attempt has failed.
 */
export class CommandConsumer<S extends CommandService> {
  private readonly registry: Map<string, AnyCommandHandler<S>>;
  private workers: Worker[] = [];
  // Opened by start(), so a module that fails to boot leaves no connection behind.
  /** Each lane's worker connection, by queue name: BullMQ completes the lane's jobs on it, and replies go out on it. */
  private readonly connections = new Map<string, RedisClient>();
  private closing?: Promise<void>;
  onOutcome?: CommandOutcomeListener;
  private readonly repliesToDrop: Set<string>;

  constructor(
    private readonly service: S,
    handlers: readonly AnyCommandHandler<S>[],
    private readonly options: CommandConsumerOptions,
  ) {
    this.registry = buildHandlerRegistry(`${service} commands`, commandNames(service), handlers, (h) => h.command);
    const mutations = commandNames(service).filter((name) => commandDefinition(service, name)?.kind === 'mutation');
    if (mutations.length && !options.commandLog) {
      throw new Error(`refusing to consume ${service} commands: its mutations (${mutations.join(', ')}) need a command log`);
    }
    this.repliesToDrop = new Set(options.dropFirstReplyOf ?? []);
  }

  /**
   * Starts consuming. Resolves once the worker's connections are up, i.e. once senders can
   * see it (a CommandBus counts live workers by their Redis client names).
   */
  async start(): Promise<void> {
    if (this.closing) throw new Error(`${this.service} command consumer is closed`);
    if (!this.workers.length) {
      for (const lane of commandLanes(this.service)) {
        const connection = createRedisConnection(this.options.redisUrl, `${this.service}-${lane}-worker`);
        const worker = new Worker(commandQueueName(this.service, lane), (job: Job) => this.process(job), {
          connection,
          prefix: this.options.prefix,
          concurrency: this.options.concurrency ?? 32,
        });
        worker.on('error', (error) => this.options.logger.error({ err: error.message, lane }, 'command worker error'));
        this.connections.set(commandQueueName(this.service, lane), connection);
        this.workers.push(worker);
      }
    }
    await Promise.all(this.workers.map((worker) => worker.waitUntilReady()));
  }

  /** The BullMQ queues this consumer takes jobs from, one per lane. */
  get queueNames(): string[] {
    return commandLanes(this.service).map((lane) => commandQueueName(this.service, lane));
  }

  /** The queue a job of this name travels on. */
  queueNameOf(command: string): string {
    return commandQueueName(this.service, commandLane(this.service, command));
  }

  get running(): boolean {
    return this.workers.length > 0 && this.workers.every((worker) => worker.isRunning());
  }

  /** Stops taking jobs and waits for the active ones to finish (once, however often called). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all(this.workers.map((worker) => worker.close()));
      for (const connection of this.connections.values()) connection.disconnect();
    })();
    return this.closing;
  }

  private async process(job: Job): Promise<void> {
    const data = job.data as CommandJobData;
    // The deadline travels in the context, so the unit of work can refuse to commit past it.
    const run = () => runWithRequestId(data.meta.requestId, () => this.run(job, data), data.meta.deadline);
    if (!tracingEnabled()) return run();
    const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': job.queueName, 'messaging.message.id': String(job.id), 'pfs.request_id': data.meta.requestId };
    await inSpan(job.name, { kind: 'consumer', parent: data.meta.trace, requireParent: true, attributes }, run);
  }

  private async run(job: Job, data: CommandJobData): Promise<void> {
    const started = Date.now();
    if (Date.now() > data.meta.deadline) {
      // The sender has already answered its client with 503: doing the work now would
      // produce an effect nobody is told about.
      this.options.logger.warn({ command: job.name, jobId: job.id }, 'command skipped: past its deadline');
      this.onOutcome?.('stale', job.name, Date.now() - started);
      return;
    }
    const handler = this.registry.get(job.name) as CommandHandler<S, CommandName<S>> | undefined;
    if (!handler) throw new UnrecoverableError(`no handler for ${job.name}`);
    const parsed = parseCommandPayload(this.service, job.name, data.payload);
    if (!parsed.ok || typeof data.meta.commandId !== 'string' || !data.meta.commandId) {
      // A sender built against another version of the contract: fail loudly, never guess.
      const problem = parsed.ok ? 'meta.commandId is missing' : parsed.problem;
      this.options.logger.error({ command: job.name, jobId: job.id, problem }, 'command refused: it does not match the contract');
      this.onOutcome?.('failed', job.name, Date.now() - started);
      this.reply(data, job, { ok: false, error: { code: 'internal_error', message: 'An unexpected error occurred.' } });
      throw new UnrecoverableError(`${job.name} does not match the contract: ${problem}`);
    }
    const context: CommandContext = { requestId: data.meta.requestId, commandId: data.meta.commandId };
    let reply: CommandReply;
    try {
      const value = await this.execute(handler, parsed.payload, context);
      reply = { ok: true, value };
      this.onOutcome?.('ok', job.name, Date.now() - started);
    } catch (error) {
      if (error instanceof CommandDeadlineExceededError) {
        // Rolled back before commit because the sender stopped waiting: nothing happened, and
        // a retry of the job would only be skipped as stale, so it is not rethrown.
        this.options.logger.warn({ command: job.name, jobId: job.id }, 'command rolled back: its deadline passed before commit');
        this.onOutcome?.('stale', job.name, Date.now() - started);
        return;
      }
      if (!isDomainError(error)) {
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        this.options.logger.error(
          { command: job.name, jobId: job.id, attempt: job.attemptsMade + 1, err: (error as Error).message },
          'command failed',
        );
        this.onOutcome?.('failed', job.name, Date.now() - started);
        if (lastAttempt) this.reply(data, job, { ok: false, error: { code: 'internal_error', message: 'An unexpected error occurred.' } });
        throw error;
      }
      // A service this handler asked did not answer: the sender learns which, as if it had asked it itself.
      reply = error instanceof ServiceUnavailableError ? { ok: false, error: error.toPayload(), unavailable: error.service } : { ok: false, error: error.toPayload() };
      this.onOutcome?.('domain_error', job.name, Date.now() - started);
    }
    if (tracingEnabled()) annotateSpan({ 'pfs.outcome': reply.ok ? 'ok' : reply.error.code });
    this.reply(data, job, reply);
    // Inside the request's context: with the gateway's line of the same requestId, this
    // shows the command's hop (the payload is never logged: it may carry key hashes).
    this.options.logger.debug(
      { command: job.name, jobId: job.id, outcome: reply.ok ? 'ok' : reply.error.code, durationMs: Date.now() - started },
      'command handled',
    );
  }

  /** A mutation goes through the command log: at most once per command id, a repeat gets the stored result. */
  private execute(handler: CommandHandler<S, CommandName<S>>, payload: unknown, context: CommandContext): Promise<unknown> {
    const run = () => handler.execute(payload as never, context);
    const definition = commandDefinition(this.service, handler.command);
    if (definition?.kind !== 'mutation') return run();
    const log = this.options.commandLog;
    if (!log) throw new Error(`${handler.command} is a mutation but the ${this.service} consumer has no command log`);
    return log.runOnce({ commandId: context.commandId, command: handler.command, payload, readFirst: definition.replay !== 'on-claim' }, run);
  }

  /**
   * Publishes the reply on the connection BullMQ completes the job on, without waiting for Redis
   * to take it: the job's completion follows in the same turn and both leave in one write (see
   * redis-connection.ts), and the job's slot is free one round trip sooner. A reply that is lost
   * is one the sender never receives, as before: the work is done (and committed) and its result
   * is in the command log, so the client's retry with its Idempotency-Key gets it rather than a
   * second effect; the sender answers 503.
   */
  private reply(data: CommandJobData, job: Job, reply: CommandReply): void {
    if (this.repliesToDrop.delete(job.name)) {
      this.options.logger.warn({ command: job.name, jobId: job.id }, 'command reply dropped on purpose (test hook)');
      return;
    }
    const message: CommandReplyMessage = { jobId: String(job.id), reply };
    const connection = this.connections.get(job.queueName);
    if (!connection) throw new Error(`${this.service} has no worker connection for ${job.queueName}`);
    connection.publish(data.meta.replyTo, JSON.stringify(message)).catch((error: unknown) => {
      this.options.logger.error({ command: job.name, jobId: job.id, err: (error as Error).message }, 'command reply could not be published');
    });
  }
}
