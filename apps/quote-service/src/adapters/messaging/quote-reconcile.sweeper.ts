import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, SweepLease } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { ReconcileQuotesUseCase } from '../../application/use-cases/reconcile-quotes/reconcile-quotes.use-case';
import { EnvQuoteSettings } from '../config/env-quote-settings';

/**
 * Every QUOTE_SWEEP_INTERVAL_MS, in one replica (`SweepLease`): settles the quotes past their expiry with the ledger (COMPLETED
 * with their trade, else EXPIRED). Passes never overlap; a pass that fails (the ledger
 * unavailable) is retried by the next.
 */
@Injectable()
export class QuoteReconcileSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly reconcile: ReconcileQuotesUseCase,
    private readonly settings: EnvQuoteSettings,
    private readonly lease: SweepLease,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    // One replica's pass per interval (the lease); the others' ticks skip it.
    const interval = this.settings.sweepIntervalMs;
    this.timer = setInterval(() => void this.lease.take('quote-reconcile', interval).then((taken) => (taken ? this.pass() : undefined)), interval);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  pass(): Promise<void> {
    this.running ??= this.reconcile
      .execute()
      .then(({ completed, expired }) => {
        if (expired) this.logger.info({ expired }, 'quotes expired by the sweeper');
        // A trade the ledger made whose recording here failed (a crash, a deadline).
        if (completed) this.logger.warn({ completed }, 'quotes completed by the sweeper with the trade the ledger held for them');
      })
      .catch((error: unknown) => this.logger.warn({ err: (error as Error).message }, 'quote sweep failed; the next pass retries'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
