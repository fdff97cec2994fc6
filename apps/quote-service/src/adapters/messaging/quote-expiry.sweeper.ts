import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { ExpireQuotesUseCase } from '../../application/use-cases/expire-quotes/expire-quotes.use-case';
import { EnvQuoteSettings } from '../config/env-quote-settings';

/** Every QUOTE_SWEEP_INTERVAL_MS: stores EXPIRED on quotes past their expiry (readers see it at once anyway). Passes never overlap. */
@Injectable()
export class QuoteExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly expire: ExpireQuotesUseCase,
    private readonly settings: EnvQuoteSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.pass(), this.settings.sweepIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  pass(): Promise<void> {
    this.running ??= this.expire
      .execute()
      .then((expired) => {
        if (expired) this.logger.info({ expired }, 'quotes expired by the sweeper');
      })
      .catch((error: unknown) => this.logger.warn({ err: (error as Error).message }, 'quote expiry sweep failed; the next pass retries'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
