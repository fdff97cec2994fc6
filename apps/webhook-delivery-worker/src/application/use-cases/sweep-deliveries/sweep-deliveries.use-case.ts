import { Injectable } from '@nestjs/common';
import { Clock } from '@pfs/contracts';
import { DeliveryQueue } from '../../ports/delivery-queue';
import { DeliverySettings } from '../../ports/delivery-settings';
import { DeliveryRepository } from '../../ports/delivery.repository';

const BATCH = 500;

/**
 * PostgreSQL is the store and Redis only the transport: every PENDING delivery that has been due
 * for the grace (`sweepGraceMs`) and is not held by a live attempt is handed to the queue again
 * (`requeue`: attempted by this process while it has room, else queued). A job that still exists
 * is not duplicated (the job id is the delivery, its attempt count and due time); one lost with
 * Redis's data, or with a worker killed mid-attempt (once its lease ends), is queued anew. Runs every
 * WEBHOOK_SWEEP_INTERVAL_MS on every worker (two sweeping at once queue the same ids).
 */
@Injectable()
export class SweepDeliveriesUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly settings: DeliverySettings,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    // Due for the grace already: a delivery due since a moment ago still has its job in the queue.
    const now = new Date(this.clock.now().getTime() - this.settings.sweepGraceMs);
    let queued = 0;
    for (;;) {
      const due = await this.deliveries.due(now, BATCH, queued);
      await this.queue.requeue(due);
      queued += due.length;
      if (due.length < BATCH) return queued;
    }
  }
}
