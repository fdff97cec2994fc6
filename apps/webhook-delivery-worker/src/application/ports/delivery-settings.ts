import type { DisableRules } from '../../domain/endpoint-health';

/** The worker's tunables (environment; see the README's configuration table). */
export abstract class DeliverySettings {
  /** Waits between attempts (WEBHOOK_RETRY_SCHEDULE). */
  abstract readonly retrySchedule: readonly number[];
  abstract readonly disableRules: DisableRules;
  /** How long a claimed attempt is held before another worker may take it (longer than an attempt can last). */
  abstract readonly leaseMs: number;
  /** Who holds leases taken here (this process). */
  abstract readonly holder: string;
  /**
   * How long a delivery has been due before the sweeper queues it again: until then its job (or
   * the job of several that carries it) may still be waiting in the queue.
   */
  abstract readonly sweepGraceMs: number;
}
