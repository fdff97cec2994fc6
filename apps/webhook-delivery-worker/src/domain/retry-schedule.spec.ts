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

  it('waits the scheduled time at the middle draw, and the failures count from 1', () => {
    DEFAULT_RETRY_SCHEDULE_MS.forEach((scheduled, index) => expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, index + 1, 0.5)).toBe(scheduled));
  });

  it('jitters by ±20 %: 0.8× at a draw of 0, 1.2× at a draw of almost 1, never outside', () => {
    expect(RETRY_JITTER).toBe(0.2);
    for (const [index, scheduled] of DEFAULT_RETRY_SCHEDULE_MS.entries()) {
      expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, index + 1, 0)).toBe(Math.round(scheduled * 0.8));
      const top = retryDelay(DEFAULT_RETRY_SCHEDULE_MS, index + 1, ALMOST_ONE)!;
      expect(top).toBeLessThanOrEqual(scheduled * 1.2);
      expect(top).toBeGreaterThan(scheduled * 1.2 - 1);
    }
    expect(retryDelay([5000], 1, 0.25)).toBe(4500);
    expect(retryDelay([5000], 1, 0.75)).toBe(5500);
  });

  it('waits at least a Retry-After, but never longer than twice the scheduled wait', () => {
    // Scheduled 5 s; the jittered wait at draw 0 is 4 s.
    expect(retryDelay([5000], 1, 0, 1000)).toBe(4000); // shorter than the schedule: the schedule wins
    expect(retryDelay([5000], 1, 0, 7000)).toBe(7000); // longer: waited
    expect(retryDelay([5000], 1, 0, 10_000)).toBe(10_000); // exactly the cap
    expect(retryDelay([5000], 1, 0, 3_600_000)).toBe(10_000); // a receiver cannot park a message for an hour
    expect(retryDelay([5000], 1, ALMOST_ONE, 5500)).toBe(6000); // the jittered wait is longer than the Retry-After
    expect(retryDelay([5000], 1, 0.5, null)).toBe(5000);
  });

  it('is null once the schedule is spent, whatever the Retry-After', () => {
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, 7, 0.5)).toBe(10 * HOUR);
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, 8, 0.5)).toBeNull();
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, 8, 0.5, 1000)).toBeNull();
    expect(retryDelay([], 1, 0.5)).toBeNull();
  });
});
