import type { Big, Clock, RandomSource } from '@pfs/contracts';
import { RateSource } from '../../application/ports/rate-source';
import { DRIFT_DRAW_BYTES, RateDrift, uniformDraw } from '../../domain/rate-drift';
import type { RateTable } from '../../domain/rate-table';

/** Steps taken at most on one read, however long the source sat unread (see below). */
export const MAX_CATCH_UP_STEPS = 1000;

/**
 * The configured table with its typed rates on a bounded random walk (RATES_DRIFT_BPS > 0, sandbox
 * only), so partners see re-quoting work. Each whole RATES_DRIFT_INTERVAL_MS of the clock since
 * start is one step: every typed pair, in table order, moves by a uniform random amount within
 * ±RATES_DRIFT_BPS bps of its current value (rounded to 10 significant digits), clamped to
 * ±10 × RATES_DRIFT_BPS bps of its configured rate; its inverse is then derived from it exactly as
 * RATES' inverses are (1 / rate, 24 places), never walked on its own. No timer: the steps due are
 * taken when a rate is read, at most MAX_CATCH_UP_STEPS at once (about what the walk needs to
 * cross its band, so a longer idle would look no different). Each replica walks on its own.
 */
export class DriftingRateSource extends RateSource {
  private readonly drift: RateDrift;
  private readonly intervalMs: number;
  private readonly anchors: ReadonlyMap<string, Big>;
  private table: RateTable;
  /** Clock time (ms) the last step was due at; the next is due one interval later. */
  private steppedAt: number;

  constructor(
    configured: RateTable,
    settings: { bps: number; intervalMs: number },
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {
    super();
    if (!Number.isInteger(settings.intervalMs) || settings.intervalMs <= 0) throw new Error(`a drift interval is a positive number of ms, not ${settings.intervalMs}`);
    this.drift = new RateDrift(settings.bps);
    this.intervalMs = settings.intervalMs;
    this.anchors = configured.typedRates();
    this.table = configured;
    this.steppedAt = clock.now().getTime();
  }

  async midRate(fromAsset: string, toAsset: string): Promise<Big> {
    this.catchUp();
    return this.table.midRate(fromAsset, toAsset);
  }

  /** Takes the steps due since the last one. */
  private catchUp(): void {
    const due = Math.floor((this.clock.now().getTime() - this.steppedAt) / this.intervalMs);
    if (due <= 0) return;
    this.steppedAt += due * this.intervalMs;
    const current = new Map(this.table.typedRates());
    for (let step = 0; step < Math.min(due, MAX_CATCH_UP_STEPS); step += 1) {
      const bytes = this.random.bytes(DRIFT_DRAW_BYTES * current.size);
      let offset = 0;
      for (const [pair, rate] of current) {
        const draw = uniformDraw(bytes.subarray(offset, offset + DRIFT_DRAW_BYTES));
        offset += DRIFT_DRAW_BYTES;
        current.set(pair, this.drift.step(rate, this.anchors.get(pair) as Big, draw));
      }
    }
    this.table = this.table.withTypedRates(current);
  }
}
