import type { SweepLease } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import type { SettlePayoutsUseCase } from '../../application/use-cases/settle-payouts/settle-payouts.use-case';
import { FixedLedgerSettings } from '../../../test/support/in-memory/fixed-ledger-settings';
import { PayoutSettlementSweeper } from './payout-settlement.sweeper';

describe('PayoutSettlementSweeper', () => {
  const logger = { info: jest.fn(), warn: jest.fn() } as unknown as Logger;
  let passes: number;
  const settle = {
    execute: async () => {
      passes += 1;
      return { moved: 0, failed: [] };
    },
  } as unknown as SettlePayoutsUseCase;

  beforeEach(() => {
    passes = 0;
    jest.useFakeTimers();
  });

  afterEach(() => jest.useRealTimers());

  /** Starts a sweeper with the settings, lets `ms` pass on the fake clock, stops it. */
  async function passesWithin(settings: FixedLedgerSettings, ms: number): Promise<number> {
    // The only replica: it holds the lease every interval (the lease itself is tested against Redis).
    const lease = { take: async () => true } as unknown as SweepLease;
    const sweeper = new PayoutSettlementSweeper(settle, settings, lease, logger);
    sweeper.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(ms);
    await sweeper.onApplicationShutdown();
    return passes;
  }

  it('runs a pass every half SANDBOX_SETTLE_DELAY in the sandbox', async () => {
    // 200 ms: a pass every 100 ms, so ten in one second.
    expect(await passesWithin(new FixedLedgerSettings('sandbox', {}, true, 200), 1000)).toBe(10);
  });

  it('never runs with SANDBOX_AUTO_SETTLE=false: a payout stays where it is until the sandbox drive endpoint moves it', async () => {
    expect(await passesWithin(new FixedLedgerSettings('sandbox', {}, false, 200), 60000)).toBe(0);
  });

  it('never runs outside the sandbox', async () => {
    expect(await passesWithin(new FixedLedgerSettings('production', {}, true, 200), 60000)).toBe(0);
  });
});
