import type { DueDelivery } from './delivery.repository';

/**
 * The transport of due deliveries (Redis). Inside a unit of work the jobs are added once it
 * commits; a job lost on the way is found again by the sweeper, since the row is the truth.
 */
export abstract class DeliveryQueue {
  abstract enqueue(deliveries: readonly DueDelivery[]): Promise<void>;
  /**
   * The sweeper's enqueue, for deliveries overdue: they may be attempted at once rather than wait
   * on a job Redis still holds but nothing serves, and a job of the same id that Redis still holds
   * but no list does (a partial loss of its data) is replaced rather than taken as already queued.
   */
  abstract requeue(deliveries: readonly DueDelivery[]): Promise<void>;
}
