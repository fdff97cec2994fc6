import { WEBHOOK_DELIVERY_QUEUE, type DeliveryAttemptJob, type TraceCarrier } from '@pfs/contracts';
import { PrismaTransactionHost } from '@pfs/persistence';
import { currentTraceCarrier, type Logger } from '@pfs/platform';
import type { Queue } from 'bullmq';
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

/** Adds `deliveries.attempt` jobs to the `webhook-deliveries` queue, delayed until due. */
export class BullmqDeliveryQueue extends DeliveryQueue {
  constructor(
    private readonly host: PrismaTransactionHost,
    private readonly queue: Queue,
    private readonly logger: Logger,
  ) {
    super();
  }

  async enqueue(deliveries: readonly DueDelivery[]): Promise<void> {
    if (!deliveries.length) return;
    // The attempts continue the trace of whoever queued them (the message's event, or the attempt before).
    const trace = currentTraceCarrier();
    if (!this.host.inTransaction) return this.add(deliveries, trace);
    // After the commit; if Redis refuses then, the rows are due and the sweeper queues them.
    this.host.afterCommit(() => {
      this.add(deliveries, trace).catch((error: unknown) =>
        this.logger.warn({ err: (error as Error).message, deliveries: deliveries.length }, 'delivery jobs not queued; the sweeper will queue them'),
      );
    });
  }

  async requeue(deliveries: readonly DueDelivery[]): Promise<void> {
    if (!deliveries.length) return;
    // Adding an id whose hash survived without its list entry would be a no-op forever; such a
    // job is in no state, so it is removed first. One state lookup per due delivery, per sweep.
    const states = await Promise.all(deliveries.map((delivery) => this.queue.getJobState(deliveryJobId(delivery))));
    const orphans = deliveries.filter((_, index) => states[index] === 'unknown');
    await Promise.all(orphans.map((delivery) => this.queue.remove(deliveryJobId(delivery))));
    await this.add(deliveries);
  }

  private async add(deliveries: readonly DueDelivery[], trace?: TraceCarrier): Promise<void> {
    const now = Date.now();
    await this.queue.addBulk(
      deliveries.map((delivery) => {
        const data: DeliveryAttemptJob = { deliveryId: delivery.deliveryId, endpointId: delivery.endpointId, attemptsMade: delivery.attemptsMade, dueAt: delivery.dueAt.getTime(), ...(trace ? { trace } : {}) };
        return {
          name: 'deliveries.attempt',
          data,
          opts: { jobId: deliveryJobId(delivery), delay: Math.max(0, delivery.dueAt.getTime() - now), removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
        };
      }),
    );
  }
}

export { WEBHOOK_DELIVERY_QUEUE };
