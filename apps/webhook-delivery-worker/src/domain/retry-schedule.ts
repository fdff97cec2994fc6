/**
 * The retry schedule of api-decisions §8: the waits after the first attempt, then after each
 * retry: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27.6 h in all). Eight attempts.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** ±20 %: receivers that failed together are not all retried in the same second. */
export const RETRY_JITTER = 0.2;

/**
 * How long to wait after the `failures`-th failed attempt in a row (1-based), or null once the
 * schedule is spent. `draw` gives a uniform draw in [0, 1), asked for only when a wait is
 * scheduled. A `Retry-After` (429, 503) is waited at least, but never longer than twice the
 * scheduled wait: a receiver cannot park a message for days.
 */
export function retryDelay(schedule: readonly number[], failures: number, draw: () => number, retryAfterMs: number | null = null): number | null {
  const scheduled = schedule[failures - 1];
  if (scheduled === undefined) return null;
  const jittered = Math.round(scheduled * (1 + (draw() * 2 - 1) * RETRY_JITTER));
  if (retryAfterMs === null) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, scheduled * 2));
}
