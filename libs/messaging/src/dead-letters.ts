import { Queue, type Job } from 'bullmq';
import type { RedisClient } from './redis-connection';
import { deadLetterQueueName, eventQueueName, type ServiceName } from '@pfs/contracts';
import { eventJobOptions } from './event-retry';

/** Why and when a subscriber gave up on an event. */
export interface DeadLetterFailure {
  /** The last error's message (never the payload). */
  reason: string;
  /** Attempts made, the failing one included. */
  attempts: number;
  /** ISO time of the last attempt. */
  failedAt: string;
}

/** A dead-letter job's data: the event job as it was delivered, and the failure. */
interface DeadLetterJobData {
  event: unknown;
  failure: DeadLetterFailure;
}

export interface DeadLetter extends DeadLetterFailure {
  subscriber: ServiceName;
  /** The event's id (the id of its job; of a job of several events that failed as a whole, that job's id). */
  eventId: string;
  /** The event's type (possibly one the contract does not know), or EVENT_BATCH_JOB for a job of several. */
  type: string;
  /** The envelope as delivered; it can carry personal data, so the CLI prints it only with --json. */
  event: unknown;
}

export type ReplayOutcome =
  /** Back on the subscriber's event queue; the dead letter is gone. */
  | 'replayed'
  /** A job with this event id is still waiting, delayed or running: the dead letter stays, try again later. */
  | 'already-queued'
  /** No dead letter with this event id. */
  | 'not-found';

/**
 * Each subscriber's dead-letter queue (`<service>-events-dead`): a BullMQ queue nobody consumes,
 * so its jobs stay until an operator replays them. The event consumer adds to it; the operator
 * CLI lists and replays. A replay puts the event back on the subscriber's event queue under its
 * event id with fresh attempts; the subscriber's inbox makes a replay of something it already
 * handled a no-op.
 */
export class DeadLetters {
  private readonly queues = new Map<string, Queue>();

  constructor(
    /** Owned by the caller, who closes it. */
    private readonly connection: RedisClient,
    private readonly options: { prefix: string; maxAttempts: number },
  ) {}

  /** Keeps a failed event job. A dead letter already there for the same event stays as it is. */
  async add(subscriber: ServiceName, job: Pick<Job, 'id' | 'name' | 'data'>, failure: DeadLetterFailure): Promise<void> {
    const data: DeadLetterJobData = { event: job.data, failure };
    await this.queue(deadLetterQueueName(subscriber)).add(job.name, data, { jobId: job.id, removeOnComplete: false, removeOnFail: false });
  }

  /** Oldest first, at most `limit`; `total` counts them all. */
  async list(subscriber: ServiceName, limit = 100): Promise<{ total: number; letters: DeadLetter[] }> {
    const queue = this.queue(deadLetterQueueName(subscriber));
    const [total, jobs] = await Promise.all([queue.getWaitingCount(), queue.getJobs(['waiting'], 0, limit - 1, true)]);
    const letters = (jobs as Array<Job<DeadLetterJobData> | undefined>)
      .filter((job): job is Job<DeadLetterJobData> & { id: string } => Boolean(job?.id))
      .map((job) => ({ subscriber, eventId: job.id, type: job.name, ...job.data.failure, event: job.data.event }));
    return { total, letters };
  }

  async replay(subscriber: ServiceName, eventId: string): Promise<ReplayOutcome> {
    const letter = (await this.queue(deadLetterQueueName(subscriber)).getJob(eventId)) as Job<DeadLetterJobData> | undefined;
    if (!letter) return 'not-found';
    const events = this.queue(eventQueueName(subscriber));
    const existing = await events.getJob(eventId);
    if (existing) {
      const state = await existing.getState();
      // BullMQ ignores an add under an existing job id: a finished job (kept by the previous
      // release's removeOnFail, or completed since) makes way; a live one is left alone.
      if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return 'already-queued';
      await existing.remove();
    }
    await events.add(letter.name, letter.data.event, eventJobOptions(eventId, this.options.maxAttempts));
    // After the add: a crash in between leaves the letter, and replaying it again is harmless.
    await letter.remove();
    return 'replayed';
  }

  /** Replays every dead letter the subscriber holds now; answers the event ids by outcome. */
  async replayAll(subscriber: ServiceName): Promise<{ replayed: string[]; alreadyQueued: string[] }> {
    const ids = await this.queue(deadLetterQueueName(subscriber)).getRanges(['waiting'], 0, -1, true);
    const replayed: string[] = [];
    const alreadyQueued: string[] = [];
    for (const id of ids) {
      const outcome = await this.replay(subscriber, id);
      if (outcome === 'replayed') replayed.push(id);
      if (outcome === 'already-queued') alreadyQueued.push(id);
    }
    return { replayed, alreadyQueued };
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.options.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }
}
