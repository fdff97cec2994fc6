import { DEFAULT_EVENT_MAX_ATTEMPTS } from '@pfs/platform';
import { EVENT_BACKOFF_TYPE, EVENT_RETRY_MAX_DELAY_MS, eventJobOptions, eventRetryDelay, eventRetrySpanMs } from '../src';

describe('event retry backoff', () => {
  it('doubles from 500 ms and stays at the ceiling, however many attempts fail', () => {
    const delays = [1, 2, 3, 4, 10, 11, 12, 50, 999_999].map((attempt) => eventRetryDelay(attempt, EVENT_BACKOFF_TYPE));
    expect(delays).toEqual([500, 1000, 2000, 4000, 256_000, EVENT_RETRY_MAX_DELAY_MS, EVENT_RETRY_MAX_DELAY_MS, EVENT_RETRY_MAX_DELAY_MS, EVENT_RETRY_MAX_DELAY_MS]);
  });

  it('refuses a backoff type it does not own, so a misspelt type fails loudly', () => {
    expect(() => eventRetryDelay(1, 'exponentail')).toThrow('unknown backoff type exponentail');
  });

  it('gives up after the default attempts only once about a day has passed, so an outage of hours loses nothing', () => {
    const hours = eventRetrySpanMs(DEFAULT_EVENT_MAX_ATTEMPTS) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThan(26);
    expect(eventRetrySpanMs(1)).toBe(0);
    expect(eventRetrySpanMs(3)).toBe(1500);
  });

  it('puts the bounded attempts on every event job and removes a job that failed for good (its dead letter keeps it)', () => {
    expect(eventJobOptions('evt_1', 7)).toEqual({
      jobId: 'evt_1',
      attempts: 7,
      backoff: { type: EVENT_BACKOFF_TYPE },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: true,
    });
  });
});
