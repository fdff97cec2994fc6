import { DeliveryQueue } from '../../../src/application/ports/delivery-queue';
import type { DueDelivery } from '../../../src/application/ports/delivery.repository';

/** Keeps what was queued, in order: the jobs a test can run next. */
export class RecordingDeliveryQueue extends DeliveryQueue {
  readonly jobs: DueDelivery[] = [];

  async enqueue(deliveries: readonly DueDelivery[]): Promise<void> {
    this.jobs.push(...deliveries.map((delivery) => ({ ...delivery })));
  }

  async requeue(deliveries: readonly DueDelivery[]): Promise<void> {
    await this.enqueue(deliveries);
  }

  /** Empties the record, returning what it held. */
  take(): DueDelivery[] {
    return this.jobs.splice(0, this.jobs.length);
  }
}
