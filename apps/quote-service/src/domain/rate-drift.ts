import { Big } from '@pfs/contracts';

/**
 * The sandbox rate drift (RATES_DRIFT_BPS), as arithmetic: one step of a bounded random walk of a
 * typed mid-rate. A step moves the rate by `draw × bps` basis points of its current value (`draw`
 * uniform in (-1, 1)), rounds it to DRIFT_SIGNIFICANT_DIGITS significant digits, and clamps it to
 * the band of ±DRIFT_BAND_STEPS × bps basis points around the configured (anchor) rate, so the
 * walk never runs away. Inverses are not walked: the rate table derives them from the result.
 */

/** The largest RATES_DRIFT_BPS: its band (±10 × 500 bps = ±50 %) keeps every rate at least half its configured value. */
export const MAX_DRIFT_BPS = 500;

/** Half-width of the band in steps: a rate stays within ±10 × bps basis points of its configured value. */
export const DRIFT_BAND_STEPS = 10;

/** Significant digits a drifted rate keeps (an edge of the band is kept exact). */
export const DRIFT_SIGNIFICANT_DIGITS = 10;

/** Random bytes behind one draw: 48 bits, far finer than the rounding. */
export const DRIFT_DRAW_BYTES = 6;

const BASIS_POINT = new Big('0.0001');
const DRAW_BITS = 8 * DRIFT_DRAW_BYTES;
/** 2^-48, exact (5^48 / 10^48): draws are multiplied, never divided, so a step stays cheap. */
const DRAW_UNIT = new Big(5).pow(DRAW_BITS).times(new Big(`1e-${DRAW_BITS}`));

/**
 * A uniform draw in (-1, 1) from DRIFT_DRAW_BYTES random bytes (big-endian n): (2n + 1 − 2^48) / 2^48,
 * the 2^48 points of the grid symmetric around 0; all 0x00 is -1 + 2^-48, all 0xff is 1 − 2^-48.
 */
export function uniformDraw(bytes: Uint8Array): Big {
  if (bytes.length !== DRIFT_DRAW_BYTES) throw new Error(`a drift draw takes ${DRIFT_DRAW_BYTES} bytes, not ${bytes.length}`);
  // n < 2^48 and 2n + 1 − 2^48 are exact integers in a JS number.
  const n = bytes.reduce((sum, byte) => sum * 256 + byte, 0);
  return new Big(2 * n + 1 - 2 ** DRAW_BITS).times(DRAW_UNIT);
}

export class RateDrift {
  /** `bps`: the largest move of one step, in basis points of the current rate; 0 leaves every rate as configured. */
  constructor(readonly bps: number) {
    if (!Number.isInteger(bps) || bps < 0 || bps > MAX_DRIFT_BPS) throw new Error(`a rate drift is an integer 0–${MAX_DRIFT_BPS} bps, not ${bps}`);
  }

  /** The band a rate configured at `anchor` stays in: anchor × (1 ± DRIFT_BAND_STEPS × bps / 10000), exact. */
  band(anchor: Big): { low: Big; high: Big } {
    const width = new Big(DRIFT_BAND_STEPS * this.bps).times(BASIS_POINT);
    return { low: anchor.times(new Big(1).minus(width)), high: anchor.times(new Big(1).plus(width)) };
  }

  /** One step from `current` (configured at `anchor`) with `draw` in [-1, 1]. */
  step(current: Big, anchor: Big, draw: Big): Big {
    if (draw.lt(-1) || draw.gt(1)) throw new Error(`a drift draw is in [-1, 1], not ${draw.toFixed()}`);
    const moved = current.times(new Big(1).plus(draw.times(this.bps).times(BASIS_POINT))).prec(DRIFT_SIGNIFICANT_DIGITS, Big.roundHalfEven);
    const { low, high } = this.band(anchor);
    if (moved.lt(low)) return low;
    if (moved.gt(high)) return high;
    return moved;
  }
}
