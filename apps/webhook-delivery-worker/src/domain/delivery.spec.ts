import type { AttemptResult } from './attempt-result';
import { afterAttempt, restarted, type DeliverySchedule } from './delivery';
import { retryDelay } from './retry-schedule';

const NOW = new Date('2026-11-23T08:00:00.000Z');
const SCHEDULE = [5000, 300_000, 1_800_000];
const later = (ms: number) => new Date(NOW.getTime() + ms);

const result = (statusCode: number | null, retryAfterMs: number | null = null): AttemptResult => ({
  statusCode,
  error: statusCode === null ? 'connection failed (ECONNRESET)' : null,
  durationMs: 30,
  response: null,
  retryAfterMs,
  timedOut: false,
});

const pending = (fields: Partial<DeliverySchedule> = {}): DeliverySchedule => ({ status: 'PENDING', attemptsMade: 0, retryIndex: 0, nextAttemptAt: NOW, ...fields });

describe('delivery schedule', () => {
  it('a success ends it: SUCCEEDED, one attempt more, nothing next', () => {
    expect(afterAttempt(pending({ attemptsMade: 2, retryIndex: 2 }), 'succeeded', result(200), NOW, SCHEDULE, () => 0.5)).toEqual({
      status: 'SUCCEEDED',
      attemptsMade: 3,
      retryIndex: 2,
      nextAttemptAt: null,
    });
  });

  it('draws the jitter only for a retry: a success, a 410 and a spent schedule draw nothing', () => {
    const draw = jest.fn(() => 0.5);
    afterAttempt(pending(), 'succeeded', result(200), NOW, SCHEDULE, draw);
    afterAttempt(pending(), 'gone', result(410), NOW, SCHEDULE, draw);
    expect(draw).not.toHaveBeenCalled();
    afterAttempt(pending({ attemptsMade: 3, retryIndex: 3 }), 'failed', result(500), NOW, SCHEDULE, draw);
    expect(draw).not.toHaveBeenCalled();
    afterAttempt(pending(), 'failed', result(500), NOW, SCHEDULE, draw);
    expect(draw).toHaveBeenCalledTimes(1);
  });

  it('a failure is retried after the next scheduled wait, jittered by the draw', () => {
    expect(afterAttempt(pending(), 'failed', result(500), NOW, SCHEDULE, () => 0.5)).toEqual({ status: 'PENDING', attemptsMade: 1, retryIndex: 1, nextAttemptAt: later(5000) });
    expect(afterAttempt(pending({ attemptsMade: 1, retryIndex: 1 }), 'failed', result(null), NOW, SCHEDULE, () => 0)).toEqual({
      status: 'PENDING',
      attemptsMade: 2,
      retryIndex: 2,
      nextAttemptAt: later(retryDelay(SCHEDULE, 2, () => 0)!),
    });
    expect(afterAttempt(pending(), 'failed', result(429, 9000), NOW, SCHEDULE, () => 0.5).nextAttemptAt).toEqual(later(9000));
  });

  it('fails for good once the schedule is spent: one attempt more than the schedule has waits', () => {
    expect(afterAttempt(pending({ attemptsMade: 2, retryIndex: 2 }), 'failed', result(503), NOW, SCHEDULE, () => 0.5).status).toBe('PENDING');
    expect(afterAttempt(pending({ attemptsMade: 3, retryIndex: 3 }), 'failed', result(503), NOW, SCHEDULE, () => 0.5)).toEqual({
      status: 'FAILED',
      attemptsMade: 4,
      retryIndex: 4,
      nextAttemptAt: null,
    });
  });

  it('410 Gone fails it at once, however much of the schedule is left', () => {
    expect(afterAttempt(pending(), 'gone', result(410), NOW, SCHEDULE, () => 0.5)).toEqual({ status: 'FAILED', attemptsMade: 1, retryIndex: 1, nextAttemptAt: null });
  });

  it('the schedule counts from the last restart, the attempt numbers go on', () => {
    const spent: DeliverySchedule = { status: 'FAILED', attemptsMade: 4, retryIndex: 4, nextAttemptAt: null };
    const again = restarted(spent, NOW);
    expect(again).toEqual({ status: 'PENDING', attemptsMade: 4, retryIndex: 0, nextAttemptAt: NOW });
    expect(afterAttempt(again, 'failed', result(500), NOW, SCHEDULE, () => 0.5)).toEqual({ status: 'PENDING', attemptsMade: 5, retryIndex: 1, nextAttemptAt: later(5000) });
    expect(restarted({ status: 'SUCCEEDED', attemptsMade: 1, retryIndex: 0, nextAttemptAt: null }, NOW)).toEqual({ status: 'PENDING', attemptsMade: 1, retryIndex: 0, nextAttemptAt: NOW });
  });
});
