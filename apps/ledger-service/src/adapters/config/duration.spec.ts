import { parseDuration } from './duration';

describe('parseDuration', () => {
  it('reads a whole number with ms, s or m', () => {
    expect(parseDuration('X', '2s')).toBe(2000);
    expect(parseDuration('X', '500ms')).toBe(500);
    expect(parseDuration('X', '1m')).toBe(60_000);
  });

  it('refuses anything else, naming the variable', () => {
    for (const text of ['', '2', '0s', '-1s', '1.5s', '2 h', 's', '2sec']) {
      expect(() => parseDuration('SANDBOX_SETTLE_DELAY', text)).toThrow(/SANDBOX_SETTLE_DELAY must be a positive duration/);
    }
  });
});
