import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, SweepLease } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { LedgerSettings } from '../../application/ports/ledger-settings';
import { SettlePayoutsUseCase } from '../../application/use-cases/settle-payouts/settle-payouts.use-case';

/**
 * Sandbox only, unless SANDBOX_AUTO_SETTLE=false: a pass every half SANDBOX_SETTLE_DELAY (at least
 * 50 ms, at most 1 s) moves each due payout one step, in one replica per interval (`SweepLease`).
 * Passes never overlap within a replica; should two replicas' passes meet (Redis unavailable),
 * the row lock and the re-check keep each move single.
 */
@Injectable()
export class PayoutSettlementSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly settle: SettlePayoutsUseCase,
    private readonly settings: LedgerSettings,
    private readonly lease: SweepLease,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.environment !== 'sandbox' || !this.settings.sandboxAutoSettle) return;
    const interval = Math.min(1000, Math.max(50, Math.floor(this.settings.sandboxSettleDelayMs / 2)));
    // One replica's pass per interval (the lease); the others' ticks skip it.
    this.timer = setInterval(() => void this.lease.take('payout-settlement', interval).then((taken) => (taken ? this.pass() : undefined)), interval);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  pass(): Promise<void> {
    this.running ??= this.settle
      .execute()
      .then(({ moved, failed }) => {
        if (moved) this.logger.info({ moved }, 'sandbox payouts moved by the settlement sweeper');
        if (failed.length) this.logger.warn({ failed }, 'sandbox payout moves failed; the next pass retries them');
      })
      .catch((error: unknown) => this.logger.warn({ err: (error as Error).message }, 'sandbox payout settlement pass failed; the next pass retries'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
