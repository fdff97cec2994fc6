import { DEFAULT_DISABLE_RULES, shouldDisable, type DisableRules } from './endpoint-health';

const SINCE = new Date('2026-11-20T08:00:00.000Z');
const RULES: DisableRules = { afterMs: 60_000, minFailures: 3 };
const at = (ms: number) => new Date(SINCE.getTime() + ms);

describe('endpoint health', () => {
  it('defaults to 5 days and 10 failures in a row', () => {
    expect(DEFAULT_DISABLE_RULES).toEqual({ afterMs: 5 * 24 * 3600 * 1000, minFailures: 10 });
  });

  it('disables once both hold: failing for afterMs, and at least minFailures in a row', () => {
    expect(shouldDisable({ consecutiveFailures: 3, failingSince: SINCE }, at(60_000), RULES)).toBe(true);
    expect(shouldDisable({ consecutiveFailures: 50, failingSince: SINCE }, at(3_600_000), RULES)).toBe(true);
  });

  it('not a millisecond early, nor one failure short', () => {
    expect(shouldDisable({ consecutiveFailures: 3, failingSince: SINCE }, at(59_999), RULES)).toBe(false);
    expect(shouldDisable({ consecutiveFailures: 2, failingSince: SINCE }, at(3_600_000), RULES)).toBe(false);
  });

  it('a healthy endpoint is never disabled', () => {
    expect(shouldDisable({ consecutiveFailures: 0, failingSince: null }, at(3_600_000), RULES)).toBe(false);
    expect(shouldDisable({ consecutiveFailures: 10, failingSince: null }, at(3_600_000), RULES)).toBe(false);
  });

  it('with the defaults: ten failures over five days', () => {
    const fiveDays = DEFAULT_DISABLE_RULES.afterMs;
    expect(shouldDisable({ consecutiveFailures: 10, failingSince: SINCE }, at(fiveDays), DEFAULT_DISABLE_RULES)).toBe(true);
    expect(shouldDisable({ consecutiveFailures: 9, failingSince: SINCE }, at(fiveDays), DEFAULT_DISABLE_RULES)).toBe(false);
    expect(shouldDisable({ consecutiveFailures: 10, failingSince: SINCE }, at(fiveDays - 1), DEFAULT_DISABLE_RULES)).toBe(false);
  });
});
