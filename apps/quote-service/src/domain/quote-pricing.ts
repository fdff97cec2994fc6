import { Big, roundDown, roundUp } from '@pfs/contracts';
import { TradeSizeOutOfBoundsError } from './quote-errors';

/** What one quote prices (api-decisions §6). */
export interface PricingInput {
  midRate: Big;
  spreadBps: number;
  fromScale: number;
  toScale: number;
}

export interface QuoteTerms {
  fromAmount: Big;
  toAmount: Big;
  /** The spread fee, in the source asset; zero when no spread applies. */
  fee: Big;
  /** `toAmount / fromAmount`, rounded down to APPLIED_RATE_DP places (never overstating what the client gets). */
  appliedRate: string;
}

export const APPLIED_RATE_DP = 18;

/** The fee on `fromAmount`: `fromAmount × spreadBps / 10000`, rounded up at the source scale (the client never pays less). */
export function spreadFee(fromAmount: Big, input: PricingInput): Big {
  return roundUp(fromAmount.times(input.spreadBps).div(10000), input.fromScale);
}

/** What `fromAmount` yields: `(fromAmount − fee) × midRate`, rounded down at the destination scale (the client never receives more). */
export function yieldOf(fromAmount: Big, input: PricingInput): Big {
  return roundDown(fromAmount.minus(spreadFee(fromAmount, input)).times(input.midRate), input.toScale);
}

function terms(fromAmount: Big, toAmount: Big, input: PricingInput): QuoteTerms {
  if (toAmount.lte(0)) throw new TradeSizeOutOfBoundsError(`fromAmount: ${fromAmount.toFixed()} is too small to yield any of the destination asset after the spread.`);
  return { fromAmount, toAmount, fee: spreadFee(fromAmount, input), appliedRate: roundDown(toAmount.div(fromAmount), APPLIED_RATE_DP).toFixed() };
}

/** Selling `fromAmount`. */
export function priceSelling(fromAmount: Big, input: PricingInput): QuoteTerms {
  return terms(fromAmount, yieldOf(fromAmount, input), input);
}

/**
 * Buying `toAmount`: the smallest `fromAmount` (at the source scale) whose yield is at least
 * `toAmount`. The client receives exactly `toAmount`; what the rounding leaves over stays with
 * the platform. The yield never decreases as `fromAmount` grows, so a binary search over source
 * units finds it exactly.
 */
export function priceBuying(toAmount: Big, input: PricingInput): QuoteTerms {
  const unit = new Big(1).div(new Big(10).pow(input.fromScale));
  const keep = new Big(1).minus(new Big(input.spreadBps).div(10000));
  if (keep.lte(0)) throw new TradeSizeOutOfBoundsError('toAmount: a spread of 100 % yields nothing.');
  // Above the exact answer by construction: the estimate, plus a margin for both roundings.
  let high = roundUp(toAmount.div(input.midRate).div(keep), input.fromScale).times(2).plus(unit.times(2));
  let low = new Big(0);
  while (high.minus(low).gt(unit)) {
    const middle = roundDown(low.plus(high).div(2), input.fromScale);
    if (yieldOf(middle, input).gte(toAmount)) high = middle;
    else low = middle;
  }
  return terms(high, toAmount, input);
}
