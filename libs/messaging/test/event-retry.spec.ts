import { EVENT_BACKOFF_TYPE, EVENT_RETRY_MAX_DELAY_MS, eventRetryDelay } from '../src';

describe('event retry backoff', () => {
  it('doubles from 500 ms and stays at the ceiling, however many attempts fail', () => {
    const delays = [1, 2, 3, 4, 10, 11, 12, 50, 999_999].map((attempt) => eventRetryDelay(attempt, EVENT_BACKOFF_TYPE));
    expect(delays).toEqual([500, 1000, 2000, 4000, 256_000, EVENT_RETRY_MAX_DELAY_MS, EVENT_RETRY_MAX_DELAY_MS, EVENT_RETRY_MAX_DELAY_MS, EVENT_RETRY_MAX_DELAY_MS]);
  });

  it('refuses a backoff type it does not own, so a misspelt type fails loudly', () => {
    expect(() => eventRetryDelay(1, 'exponentail')).toThrow('unknown backoff type exponentail');
  });
});
