import type { SweepLease } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import type { SweepDeliveriesUseCase } from '../../application/use-cases/sweep-deliveries/sweep-deliveries.use-case';

/** Runs the sweep every WEBHOOK_SWEEP_INTERVAL_MS, in one worker per interval (`SweepLease`); passes never overlap. */
export class DeliverySweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly sweep: SweepDeliveriesUseCase,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly lease: SweepLease,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.lease.take('deliveries', this.intervalMs).then((taken) => (taken ? this.pass() : undefined)), this.intervalMs);
    this.timer.unref();
    void this.pass();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  pass(): Promise<void> {
    this.running ??= this.sweep
      .execute()
      .then((queued) => {
        if (queued) this.logger.info({ queued }, 'due deliveries queued by the sweeper');
      })
      .catch((error: unknown) => this.logger.warn({ err: (error as Error).message }, 'delivery sweep failed; the next pass retries'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
