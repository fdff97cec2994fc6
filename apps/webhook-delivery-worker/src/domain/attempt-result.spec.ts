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
  it.each([200, 201, 202, 204, 299])('a %i succeeds, with no error', (status) => {
    expect(verdictOf(answer(status))).toBe('succeeded');
    expect(answerError(answer(status))).toBeNull();
  });

  it.each([300, 301, 302, 307, 308])('a %i fails: redirects are not followed', (status) => {
    expect(verdictOf(answer(status))).toBe('failed');
    expect(answerError(answer(status))).toBe(`HTTP ${status}: redirects are not followed`);
  });

  it('410 Gone is its own verdict (the endpoint is disabled)', () => {
    expect(verdictOf(answer(410))).toBe('gone');
    expect(answerError(answer(410))).toBe('HTTP 410');
  });

  it.each([400, 401, 404, 409, 429, 500, 502, 503])('a %i fails', (status) => {
    expect(verdictOf(answer(status))).toBe('failed');
    expect(answerError(answer(status))).toBe(`HTTP ${status}`);
  });

  describe('no answer fails, with the reason the sender gave', () => {
    it.each([
      ['a timeout', answer(null, { error: 'timed out after 15 s', timedOut: true }), 'timed out after 15 s'],
      ['a refused destination', answer(null, { error: 'destination refused: url must be an https:// URL' }), 'destination refused: url must be an https:// URL'],
      ['a failed connection', answer(null, { error: 'connection failed (ECONNREFUSED)' }), 'connection failed (ECONNREFUSED)'],
    ])('%s', (_case, result, reason) => {
      expect(verdictOf(result)).toBe('failed');
      expect(answerError(result)).toBe(reason);
    });
  });
});
