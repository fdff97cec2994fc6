import type { AttemptResult, AttemptVerdict } from './attempt-result';
import { retryDelay } from './retry-schedule';

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'DROPPED';

/** One message due to one endpoint, as far as its schedule goes. */
export interface DeliverySchedule {
  status: DeliveryStatus;
  /** Attempts made so far, counting on through resends (the attempt log's numbers). */
  attemptsMade: number;
  /** Failed attempts since the delivery was (re)started: the position in the retry schedule. */
  retryIndex: number;
  nextAttemptAt: Date | null;
}

/**
 * The delivery after an attempt: done on a 2xx; failed for good on 410 (the endpoint is being
 * disabled) or once the schedule is spent; else pending until the next scheduled time.
 * `draw` gives the jitter's uniform draw in [0, 1), asked for only when a retry is scheduled.
 */
export function afterAttempt(
  delivery: DeliverySchedule,
  verdict: AttemptVerdict,
  result: AttemptResult,
  now: Date,
  schedule: readonly number[],
  draw: () => number,
): DeliverySchedule {
  const attemptsMade = delivery.attemptsMade + 1;
  if (verdict === 'succeeded') return { status: 'SUCCEEDED', attemptsMade, retryIndex: delivery.retryIndex, nextAttemptAt: null };
  const failures = delivery.retryIndex + 1;
  const delay = verdict === 'gone' ? null : retryDelay(schedule, failures, draw, result.retryAfterMs);
  if (delay === null) return { status: 'FAILED', attemptsMade, retryIndex: failures, nextAttemptAt: null };
  return { status: 'PENDING', attemptsMade, retryIndex: failures, nextAttemptAt: new Date(now.getTime() + delay) };
}

/** Resend and recover: due now, with the whole retry schedule ahead again. */
export function restarted(delivery: DeliverySchedule, now: Date): DeliverySchedule {
  return { status: 'PENDING', attemptsMade: delivery.attemptsMade, retryIndex: 0, nextAttemptAt: now };
}
