import { DEFAULT_RETRY_SCHEDULE_MS, RETRY_JITTER, retryDelay } from './retry-schedule';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** The largest draw a uniform source in [0, 1) can give (32-bit draws). */
const ALMOST_ONE = 1 - 2 ** -32;

describe('retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h by default: eight attempts over about 27.6 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((sum, wait) => sum + wait, 0);
    expect(total / HOUR).toBeCloseTo(27.6, 1);
  });

  // [failure number, scheduled wait]: the failures count from 1.
  const SCHEDULED = DEFAULT_RETRY_SCHEDULE_MS.map((scheduled, index) => [index + 1, scheduled] as const);

  it.each(SCHEDULED)('waits the scheduled time at the middle draw after failure %i (%i ms)', (failure, scheduled) => {
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, failure, () => 0.5)).toBe(scheduled);
  });

  describe('jitters by ±20 %: 0.8× at a draw of 0, 1.2× at a draw of almost 1, never outside', () => {
    it.each(SCHEDULED)('after failure %i (%i ms)', (failure, scheduled) => {
      expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, failure, () => 0)).toBe(Math.round(scheduled * 0.8));
      const top = retryDelay(DEFAULT_RETRY_SCHEDULE_MS, failure, () => ALMOST_ONE)!;
      expect(top).toBeLessThanOrEqual(scheduled * 1.2);
      expect(top).toBeGreaterThan(scheduled * 1.2 - 1);
    });

    it('linearly in between: 0.9× at a draw of 0.25, 1.1× at 0.75', () => {
      expect(RETRY_JITTER).toBe(0.2);
      expect(retryDelay([5000], 1, () => 0.25)).toBe(4500);
      expect(retryDelay([5000], 1, () => 0.75)).toBe(5500);
    });
  });

  // Scheduled 5 s; the jittered wait at draw 0 is 4 s.
  it.each([
    ['shorter than the schedule: the schedule wins', 0, 1000, 4000],
    ['longer: waited', 0, 7000, 7000],
    ['exactly the cap', 0, 10_000, 10_000],
    ['an hour: a receiver cannot park a message that long', 0, 3_600_000, 10_000],
    ['shorter than the jittered wait', ALMOST_ONE, 5500, 6000],
    ['none', 0.5, null, 5000],
  ])('waits at least a Retry-After, but never longer than twice the scheduled wait: %s', (_case, draw, retryAfterMs, wait) => {
    expect(retryDelay([5000], 1, () => draw, retryAfterMs)).toBe(wait);
  });

  it('waits after the last scheduled failure', () => expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, 7, () => 0.5)).toBe(10 * HOUR));

  it.each([
    ['after the eighth failure', DEFAULT_RETRY_SCHEDULE_MS, 8, null],
    ['after the eighth failure, with a Retry-After', DEFAULT_RETRY_SCHEDULE_MS, 8, 1000],
    ['for an empty schedule', [], 1, null],
  ] as const)('is null once the schedule is spent, whatever the Retry-After: %s', (_case, schedule, failure, retryAfterMs) => {
    expect(retryDelay(schedule, failure, () => 0.5, retryAfterMs)).toBeNull();
  });
});
