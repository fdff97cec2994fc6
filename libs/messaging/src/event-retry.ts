import type { JobsOptions } from 'bullmq';

/**
 * How event jobs are retried: BullMQ's attempts with our backoff, doubling from 500 ms up to a
 * 5-minute ceiling. The default number of attempts (EVENT_MAX_ATTEMPTS) spans about a day, so a
 * subscriber whose database is down for hours loses nothing: it takes the event when it
 * recovers, and its inbox makes every repeat harmless (DEFAULT_EVENT_MAX_ATTEMPTS in @pfs/platform). After the last attempt the event goes to
 * the subscriber's dead-letter queue (event-consumer.ts) instead of retrying forever.
 */
export const EVENT_BACKOFF_TYPE = 'capped-exponential';
export const EVENT_RETRY_FIRST_DELAY_MS = 500;
export const EVENT_RETRY_MAX_DELAY_MS = 5 * 60 * 1000;

/** BullMQ's worker `settings.backoffStrategy` for EVENT_BACKOFF_TYPE (attemptsMade counts from 1). */
export function eventRetryDelay(attemptsMade: number, type?: string): number {
  if (type !== EVENT_BACKOFF_TYPE) throw new Error(`unknown backoff type ${String(type)}`);
  const exponent = Math.min(Math.max(attemptsMade - 1, 0), 30);
  return Math.min(EVENT_RETRY_FIRST_DELAY_MS * 2 ** exponent, EVENT_RETRY_MAX_DELAY_MS);
}

/** Total time from the first attempt to the last for a number of attempts (for the README and tests). */
export function eventRetrySpanMs(maxAttempts: number): number {
  let total = 0;
  for (let attempt = 1; attempt < maxAttempts; attempt += 1) total += eventRetryDelay(attempt, EVENT_BACKOFF_TYPE);
  return total;
}

/**
 * The options of every event job, added by the relay and by a dead-letter replay alike. The job
 * id is the event id (a second add of the same event is ignored while the job exists). A job
 * that fails for good is removed at once: its dead letter holds the event, and a replay must be
 * able to add it again under the same id. A completed job is kept a little while (an operator
 * may look at it), not by the hundred thousand: subscribers' inboxes are what de-duplicate.
 */
export function eventJobOptions(eventId: string, maxAttempts: number): JobsOptions {
  return {
    jobId: eventId,
    attempts: maxAttempts,
    backoff: { type: EVENT_BACKOFF_TYPE },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: true,
  };
}

/**
 * The options of a job carrying several events (EVENT_BATCH_JOB): the same attempts and backoff,
 * under an id of its own (its first and last events' ids, never an event's id, so the job of that
 * event alone can still be added), and removed once done: the events' own ids de-duplicate, in
 * the subscribers' inboxes.
 */
export function eventBatchJobOptions(eventIds: readonly string[], maxAttempts: number): JobsOptions {
  return {
    jobId: `${eventIds[0] ?? ''}..${eventIds[eventIds.length - 1] ?? ''}.${eventIds.length}`,
    attempts: maxAttempts,
    backoff: { type: EVENT_BACKOFF_TYPE },
    removeOnComplete: true,
    removeOnFail: true,
  };
}
