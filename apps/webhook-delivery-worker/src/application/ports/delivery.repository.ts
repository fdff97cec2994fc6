import type { CursorPosition } from '@pfs/contracts';
import type { DeliverySchedule } from '../../domain/delivery';
import type { EndpointHealth } from '../../domain/endpoint-health';

/** A delivery that is due (or will be) at `dueAt`: what the queue gets a job for. */
export interface DueDelivery {
  deliveryId: string;
  endpointId: string;
  attemptsMade: number;
  dueAt: Date;
  /**
   * When an attempt of a worker that died held it, the end of that lease: the dead worker's job
   * may still sit in Redis as active until BullMQ finds it stalled, so the retry needs a job of
   * its own (the stale one is skipped by the claim when it runs).
   */
  abandonedLeaseUntil?: Date;
}

export interface NewMessage {
  id: string;
  eventType: string;
  payload: string;
  createdAt: Date;
  /** `dropped`: the endpoint was disabled at the fan-out; recorded DROPPED, never attempted. */
  deliveries: Array<{ endpointId: string; organizationId: string; dropped: boolean }>;
}

/** A delivery taken for one attempt (leased), with what is sent. */
export interface ClaimedDelivery extends DeliverySchedule {
  id: string;
  messageId: string;
  endpointId: string;
  organizationId: string;
  eventType: string;
  payload: string;
}

export interface AttemptRecord {
  id: string;
  deliveryId: string;
  messageId: string;
  endpointId: string;
  organizationId: string;
  eventType: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  response: string | null;
}

export interface DeliveryRef {
  id: string;
  messageId: string;
  endpointId: string;
  schedule: DeliverySchedule;
}

/** How an attempt went for its endpoint's run of failures: a failure at `at` adds one, a success ends the run. */
export interface EndpointOutcome {
  outcome: 'success' | 'failure';
  at: Date;
}

/** What recording an attempt answers: its number, the schedule the delivery has now, the endpoint's run after it. */
export interface RecordedAttempt {
  attempt: number;
  schedule: DeliverySchedule;
  health: EndpointHealth;
}

export abstract class DeliveryRepository {
  /** The message and one delivery per endpoint (PENDING, due at its creation, or DROPPED); the PENDING ones are returned. A repeat adds nothing and returns []. */
  abstract insertMessage(message: NewMessage, ids: string[]): Promise<DueDelivery[]>;
  /**
   * The same rows as writes of the unit of work (its one statement in a write-only unit): a message
   * recorded already refuses the whole unit. The PENDING deliveries are returned at once.
   */
  abstract recordMessage(message: NewMessage, ids: string[]): Promise<DueDelivery[]>;
  /**
   * Takes the delivery for one attempt: only if it is PENDING, due, still at `attemptsMade`, and
   * not leased to another holder. The lease ends at `leaseUntil` (a holder that dies frees it).
   */
  abstract claim(deliveryId: string, attemptsMade: number, holder: string, leaseUntil: Date, now: Date): Promise<ClaimedDelivery | null>;
  /**
   * Writes the attempt and, while `holder` still holds the lease, the delivery's next step (and
   * frees the lease). A resend or recover that came meanwhile took the lease away and set its own
   * schedule: that one stays. Either way the attempt counts, numbered by the row's count, so two
   * overlapping attempts never share a number. In the same write, the endpoint's run of failures:
   * a failure adds one to it (atomically, whatever runs beside it; the run starts at `at`), a
   * success ends it. Answers the attempt's number, the schedule the row has now and the run after
   * the attempt.
   */
  abstract recordAttempt(attempt: AttemptRecord, next: DeliverySchedule, holder: string, endpoint: EndpointOutcome): Promise<RecordedAttempt>;
  /** The endpoint is disabled or deleted: the delivery is dropped (recover brings it back). */
  abstract drop(deliveryId: string): Promise<void>;
  /** PENDING deliveries due by `now` whose lease (if any) has ended, oldest first. */
  abstract due(now: Date, limit: number, offset: number): Promise<DueDelivery[]>;
  abstract listAttempts(organizationId: string, endpointId: string, after: CursorPosition | null, limit: number): Promise<AttemptRecord[]>;
  /** Locks the delivery of the message to the endpoint (the organization's) until the unit of work ends. */
  abstract findForUpdate(organizationId: string, endpointId: string, messageId: string): Promise<DeliveryRef | null>;
  /** The endpoint's FAILED or DROPPED deliveries of messages created in [since, until), locked. */
  abstract findFailedForUpdate(organizationId: string, endpointId: string, since: Date, until: Date | null): Promise<DeliveryRef[]>;
  abstract reschedule(deliveryId: string, schedule: DeliverySchedule): Promise<void>;
}
