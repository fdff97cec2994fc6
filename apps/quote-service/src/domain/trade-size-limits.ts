import { Big, findAsset, isDecimalString } from '@pfs/contracts';
import { TradeSizeOutOfBoundsError } from './quote-errors';

export interface TradeSizeBounds {
  min: Big;
  max: Big;
}

/**
 * Per-asset bounds of what one trade may sell, in the source asset: the default for every pair
 * selling it. About USD 1 to USD 1 000 000 each.
 */
const DEFAULT_BOUNDS: Readonly<Record<string, readonly [string, string]>> = {
  USD: ['1', '1000000'],
  EUR: ['1', '1000000'],
  USDC: ['1', '1000000'],
  USDT: ['1', '1000000'],
  BTC: ['0.00001', '10'],
  ETH: ['0.0003', '300'],
};

/**
 * Trade size bounds per pair, in the source asset (`fromAmount`): QUOTE_TRADE_LIMITS
 * (`FROM/TO=MIN:MAX,…`) for the pairs it names, the source asset's default for the others.
 */
export class TradeSizeLimits {
  private constructor(private readonly overrides: ReadonlyMap<string, TradeSizeBounds>) {}

  static parse(text: string): TradeSizeLimits {
    const overrides = new Map<string, TradeSizeBounds>();
    for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
      const match = /^([A-Z0-9]+)\/([A-Z0-9]+)=([^:]+):(.+)$/.exec(entry);
      if (!match) throw new Error(`trade limit "${entry}" is not FROM/TO=MIN:MAX`);
      const [, from, to, min, max] = match;
      for (const code of [from, to]) if (!findAsset(code)) throw new Error(`trade limit "${entry}": ${code} is not an asset of the catalog`);
      if (!isDecimalString(min) || !isDecimalString(max) || new Big(min).gt(max) || new Big(max).lte(0)) throw new Error(`trade limit "${entry}": MIN and MAX must be decimals with MIN ≤ MAX`);
      overrides.set(`${from}/${to}`, { min: new Big(min), max: new Big(max) });
    }
    return new TradeSizeLimits(overrides);
  }

  boundsOf(fromAsset: string, toAsset: string): TradeSizeBounds {
    const override = this.overrides.get(`${fromAsset}/${toAsset}`);
    if (override) return override;
    const [min, max] = DEFAULT_BOUNDS[fromAsset] ?? ['0', '1000000'];
    return { min: new Big(min), max: new Big(max) };
  }

  /** Refuses a trade selling less than the pair's minimum or more than its maximum, naming both. */
  check(fromAsset: string, toAsset: string, fromAmount: Big): void {
    const { min, max } = this.boundsOf(fromAsset, toAsset);
    if (fromAmount.lt(min) || fromAmount.gt(max)) {
      throw new TradeSizeOutOfBoundsError(
        `fromAmount: ${fromAmount.toFixed()} ${fromAsset} is outside the trade size for ${fromAsset} → ${toAsset}: from ${min.toFixed()} to ${max.toFixed()} ${fromAsset}.`,
      );
    }
  }
}
