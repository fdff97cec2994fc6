import { WEBHOOK_DELIVERY_QUEUE, type DeliveryAttemptJob, type TraceCarrier } from '@pfs/contracts';
import { addJobs, chunks } from '@pfs/messaging';
import { PrismaTransactionHost } from '@pfs/persistence';
import { callBatcher, currentTraceCarrier, type Logger } from '@pfs/platform';
import type { JobsOptions, Queue } from 'bullmq';
import { DeliveryQueue } from '../../application/ports/delivery-queue';
import type { DueDelivery } from '../../application/ports/delivery.repository';

/**
 * Jobs leave Redis when they end, failed ones too: the sweeper may then add the same id again
 * for a delivery still due.
 *
 * The job id names the delivery, its attempt count and its due time: adding a job that is still
 * in Redis is a no-op (so the sweeper never doubles one), and a job for a step already taken is
 * skipped by the claim.
 */
export function deliveryJobId(delivery: DueDelivery): string {
  const id = `${delivery.deliveryId}.${delivery.attemptsMade}.${delivery.dueAt.getTime()}`;
  return delivery.abandonedLeaseUntil ? `${id}.r${delivery.abandonedLeaseUntil.getTime()}` : id;
}

/** The id under which the sweeper's worker attempts a delivery whose job is `jobId`: a lease holder of its own. */
export function sweptAttemptId(jobId: string): string {
  return `${jobId}.swept`;
}

/** First attempts to one endpoint one job carries at most. */
const ATTEMPTS_PER_JOB = 50;

interface Queued {
  deliveries: readonly DueDelivery[];
  trace?: TraceCarrier;
}

/** One delivery to attempt, with the trace of whoever queued it. */
interface QueuedAttempt {
  delivery: DueDelivery;
  trace?: TraceCarrier;
}

/** A job as added to the queue. */
interface AttemptJobSpec {
  name: 'deliveries.attempt';
  data: DeliveryAttemptJob;
  opts: JobsOptions & { jobId: string };
}

/** A job's id and data, before (or instead of) it is added to the queue. */
export interface AttemptJob {
  id: string;
  data: DeliveryAttemptJob;
}

/** Where attempts due now can be made without a job: the worker of this process (`DeliveryQueueWorker.attemptHere`). */
export interface InProcessAttempts {
  /** Takes the job's attempts (true), and adds the job itself with `queue` if it cannot make them after all; false to leave it to be queued. */
  attemptHere(job: AttemptJob, queue: () => Promise<void>): boolean;
}

/**
 * Adds `deliveries.attempt` jobs to the `webhook-deliveries` queue, delayed until due. The first
 * attempts queued together (a batch of messages just recorded) go one job per endpoint, the
 * job's own delivery first and the others in `also`: the worker then takes one job and one
 * endpoint slot for all of them. Retries and the sweeper's deliveries go one job each. Once the
 * worker of this process is running (`attemptInProcess`), it makes the first attempts due now,
 * and the deliveries the sweeper finds overdue, itself while it has room; only what it cannot
 * take becomes a job.
 */
export class BullmqDeliveryQueue extends DeliveryQueue {
  private readonly gathered = callBatcher<Queued, void>(async (calls) => {
    await this.addTogether(calls);
    return calls.map(() => undefined);
  }, { maxInFlight: 1, maxBatchSize: 256 });

  private here?: InProcessAttempts;

  constructor(
    private readonly host: PrismaTransactionHost,
    private readonly queue: Queue,
    private readonly logger: Logger,
  ) {
    super();
  }

  /** First attempts due now, and overdue deliveries, go to `here` when it takes them (none: every attempt is a job). */
  attemptInProcess(here: InProcessAttempts | undefined): void {
    this.here = here;
  }

  async enqueue(deliveries: readonly DueDelivery[]): Promise<void> {
    if (!deliveries.length) return;
    // The attempts continue the trace of whoever queued them (the message's event, or the attempt before).
    const queued: Queued = { deliveries, trace: currentTraceCarrier() };
    if (!this.host.inTransaction) return this.gathered(queued);
    // After the commit; if Redis refuses then, the rows are due and the sweeper queues them.
    this.host.afterCommit(() => {
      this.gathered(queued).catch((error: unknown) =>
        this.logger.warn({ err: (error as Error).message, deliveries: deliveries.length }, 'delivery jobs not queued; the sweeper will queue them'),
      );
    });
  }

  /**
   * The sweeper's deliveries, overdue by its grace: this process's worker makes those it has room
   * for, so a delivery whose job Redis still holds but no consumer takes (its worker killed
   * holding it, a consumer wedged after a Redis failover) does not wait on that job. The claim
   * in PostgreSQL makes each step once, whichever of the two gets there; the job that comes later
   * finds the step taken and skips it. The attempt made here goes under an id of its own
   * (`sweptAttemptId`): under the job's, the job taken meanwhile by this same process would hold
   * the same lease, and both would send.
   */
  async requeue(deliveries: readonly DueDelivery[]): Promise<void> {
    if (!deliveries.length) return;
    const now = Date.now();
    const jobs = deliveries.map((delivery) => this.jobOf([{ delivery }], now));
    await this.addAfresh(jobs.filter((job) => !this.here?.attemptHere({ id: sweptAttemptId(job.opts.jobId), data: job.data }, () => this.addAfresh([job]))));
  }

  /** Adds the jobs; an id whose hash survived without its list entry is replaced, not taken as queued. */
  private async addAfresh(jobs: readonly AttemptJobSpec[]): Promise<void> {
    if (!jobs.length) return;
    // Adding an id whose hash survived without its list entry would be a no-op forever; such a
    // job is in no state, so it is removed first. One state lookup per due delivery, per sweep.
    const states = await Promise.all(jobs.map((job) => this.queue.getJobState(job.opts.jobId)));
    const orphans = jobs.filter((_, index) => states[index] === 'unknown');
    await Promise.all(orphans.map((job) => this.queue.remove(job.opts.jobId)));
    await addJobs(this.queue, jobs);
  }

  private async addTogether(calls: readonly Queued[]): Promise<void> {
    const now = Date.now();
    const groups = new Map<string, QueuedAttempt[]>();
    const alone: QueuedAttempt[][] = [];
    for (const { deliveries, trace } of calls) {
      for (const delivery of deliveries) {
        const item = { delivery, ...(trace ? { trace } : {}) };
        if (delivery.attemptsMade > 0 || delivery.abandonedLeaseUntil || delivery.dueAt.getTime() > now) {
          alone.push([item]);
          continue;
        }
        const group = groups.get(delivery.endpointId);
        if (group) group.push(item);
        else groups.set(delivery.endpointId, [item]);
      }
    }
    const jobs = alone.map((items) => this.jobOf(items, now));
    for (const group of groups.values()) {
      for (const chunk of chunks(group, ATTEMPTS_PER_JOB)) {
        const job = this.jobOf(chunk, now);
        if (!this.here?.attemptHere({ id: job.opts.jobId, data: job.data }, () => addJobs(this.queue, [job]))) jobs.push(job);
      }
    }
    await addJobs(this.queue, jobs);
  }

  /** One job per list: its first delivery's, carrying the others (same endpoint) in `also`. */
  private jobOf(items: ReadonlyArray<QueuedAttempt>, now: number): AttemptJobSpec {
    const attemptOf = ({ delivery, trace }: QueuedAttempt) => ({
      deliveryId: delivery.deliveryId,
      attemptsMade: delivery.attemptsMade,
      dueAt: delivery.dueAt.getTime(),
      ...(trace ? { trace } : {}),
    });
    const [first, ...rest] = items;
    if (!first) throw new Error('a job carries at least one attempt');
    return {
      name: 'deliveries.attempt',
      data: { ...attemptOf(first), endpointId: first.delivery.endpointId, ...(rest.length ? { also: rest.map(attemptOf) } : {}) },
      opts: { jobId: deliveryJobId(first.delivery), delay: Math.max(0, first.delivery.dueAt.getTime() - now), removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
    };
  }
}

export { WEBHOOK_DELIVERY_QUEUE };
