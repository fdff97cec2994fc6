import { answerError, verdictOf, type AttemptResult } from './attempt-result';

const answer = (statusCode: number | null, fields: Partial<AttemptResult> = {}): AttemptResult => ({
  statusCode,
  error: null,
  durationMs: 40,
  response: null,
  retryAfterMs: null,
  timedOut: false,
  ...fields,
});

describe('attempt result', () => {
  it('a 2xx succeeds', () => {
    for (const status of [200, 201, 202, 204, 299]) expect([status, verdictOf(answer(status))]).toEqual([status, 'succeeded']);
    expect(answerError(answer(200))).toBeNull();
    expect(answerError(answer(204))).toBeNull();
  });

  it('a 3xx fails: redirects are not followed', () => {
    for (const status of [300, 301, 302, 307, 308]) {
      expect(verdictOf(answer(status))).toBe('failed');
      expect(answerError(answer(status))).toBe(`HTTP ${status}: redirects are not followed`);
    }
  });

  it('410 Gone is its own verdict (the endpoint is disabled); other 4xx and 5xx fail', () => {
    expect(verdictOf(answer(410))).toBe('gone');
    expect(answerError(answer(410))).toBe('HTTP 410');
    for (const status of [400, 401, 404, 409, 429, 500, 502, 503]) {
      expect(verdictOf(answer(status))).toBe('failed');
      expect(answerError(answer(status))).toBe(`HTTP ${status}`);
    }
  });

  it('no answer fails, with the reason the sender gave', () => {
    const timedOut = answer(null, { error: 'timed out after 15 s', timedOut: true });
    expect(verdictOf(timedOut)).toBe('failed');
    expect(answerError(timedOut)).toBe('timed out after 15 s');
    expect(verdictOf(answer(null, { error: 'destination refused: url must be an https:// URL' }))).toBe('failed');
    expect(answerError(answer(null, { error: 'connection failed (ECONNREFUSED)' }))).toBe('connection failed (ECONNREFUSED)');
  });
});
