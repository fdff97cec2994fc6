/**
 * How event jobs are retried. BullMQ's own exponential backoff with a fixed number of attempts
 * gives up after about 17 minutes and parks the event in the failed set: a subscriber whose
 * database is down for longer would lose it. Instead an event is retried practically forever,
 * doubling from 500 ms up to a ceiling, so it is taken as soon as the subscriber recovers; its
 * inbox makes every repeat harmless.
 */
export const EVENT_BACKOFF_TYPE = 'capped-exponential';
export const EVENT_DELIVERY_ATTEMPTS = 1_000_000;
export const EVENT_RETRY_FIRST_DELAY_MS = 500;
export const EVENT_RETRY_MAX_DELAY_MS = 5 * 60 * 1000;

/** BullMQ's worker `settings.backoffStrategy` for EVENT_BACKOFF_TYPE (attemptsMade counts from 1). */
export function eventRetryDelay(attemptsMade: number, type?: string): number {
  if (type !== EVENT_BACKOFF_TYPE) throw new Error(`unknown backoff type ${String(type)}`);
  const exponent = Math.min(Math.max(attemptsMade - 1, 0), 30);
  return Math.min(EVENT_RETRY_FIRST_DELAY_MS * 2 ** exponent, EVENT_RETRY_MAX_DELAY_MS);
}
