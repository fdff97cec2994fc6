import { EnvLedgerSettings, standingCacheMs } from './env-ledger-settings';

describe('EnvLedgerSettings: the sandbox rails’ settings', () => {
  it('settles by itself every 2 s by default', () => {
    const settings = new EnvLedgerSettings('sandbox', {});
    expect(settings.sandboxAutoSettle).toBe(true);
    expect(settings.sandboxSettleDelayMs).toBe(2000);
  });

  it('reads SANDBOX_AUTO_SETTLE=false and a SANDBOX_SETTLE_DELAY such as 200ms', () => {
    const settings = new EnvLedgerSettings('sandbox', { SANDBOX_AUTO_SETTLE: 'false', SANDBOX_SETTLE_DELAY: '200ms' });
    expect(settings.sandboxAutoSettle).toBe(false);
    expect(settings.sandboxSettleDelayMs).toBe(200);
  });

  it('stops the service at start on anything malformed', () => {
    expect(() => new EnvLedgerSettings('sandbox', { SANDBOX_AUTO_SETTLE: 'no' })).toThrow(/SANDBOX_AUTO_SETTLE must be true or false/);
    expect(() => new EnvLedgerSettings('sandbox', { SANDBOX_SETTLE_DELAY: '2' })).toThrow(/SANDBOX_SETTLE_DELAY must be a positive duration/);
  });
});

describe('standingCacheMs', () => {
  it('reuses a standing for 250 ms by default, 0 turns the cache off, anything else malformed stops the service', () => {
    expect(standingCacheMs({})).toBe(250);
    expect(standingCacheMs({ STANDING_CACHE_MS: '0' })).toBe(0);
    expect(standingCacheMs({ STANDING_CACHE_MS: '1000' })).toBe(1000);
    expect(() => standingCacheMs({ STANDING_CACHE_MS: '1s' })).toThrow(/STANDING_CACHE_MS must be a whole number/);
  });
});
