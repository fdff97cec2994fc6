import { Big, findAsset } from '@pfs/contracts';
import { SwapDirectionNotAllowedError } from './quote-errors';

/**
 * The sandbox's mid-rates: every pair of the catalog once, as `BASE/QUOTE=price of one BASE in
 * QUOTE`; each pair's inverse is derived, never typed twice. Operators replace it with RATES.
 */
export const DEFAULT_RATES =
  'EUR/USD=1.08,USDC/USD=1,USDT/USD=1,BTC/USD=97000,ETH/USD=3500,' +
  'EUR/USDC=1.08,EUR/USDT=1.08,BTC/EUR=89800,ETH/EUR=3240,' +
  'USDT/USDC=1,BTC/USDC=97000,ETH/USDC=3500,BTC/USDT=97000,ETH/USDT=3500,' +
  'ETH/BTC=0.036';

/** Decimal places kept of a derived inverse: far below any asset's smallest unit once multiplied. */
const INVERSE_DP = 24;

/** Mid-rates by ordered pair; a typed pair and its derived inverse. */
export class RateTable {
  private constructor(
    private readonly rates: ReadonlyMap<string, Big>,
    private readonly typed: ReadonlyMap<string, Big>,
  ) {}

  /** `BASE/QUOTE=RATE,…`; a malformed table, an unknown asset or a pair given twice stops the service at start. */
  static parse(text: string): RateTable {
    const rates = new Map<string, Big>();
    for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
      const match = /^([A-Z0-9]+)\/([A-Z0-9]+)=([0-9]+(?:\.[0-9]+)?)$/.exec(entry);
      if (!match) throw new Error(`rate "${entry}" is not BASE/QUOTE=RATE`);
      const [, base, quote, rate] = match;
      for (const code of [base, quote]) if (!findAsset(code)) throw new Error(`rate "${entry}": ${code} is not an asset of the catalog`);
      if (base === quote) throw new Error(`rate "${entry}": a pair needs two assets`);
      const value = new Big(rate);
      if (value.lte(0)) throw new Error(`rate "${entry}" must be positive`);
      if (rates.has(`${base}/${quote}`) || rates.has(`${quote}/${base}`)) throw new Error(`rate "${entry}": the pair is given twice (its inverse is derived)`);
      rates.set(`${base}/${quote}`, value);
    }
    return RateTable.derive(rates);
  }

  /** The typed pairs with their inverses, each `1 / rate` kept to INVERSE_DP places. */
  private static derive(typed: ReadonlyMap<string, Big>): RateTable {
    const rates = new Map(typed);
    for (const [pair, value] of typed) {
      const [base, quote] = pair.split('/');
      rates.set(`${quote}/${base}`, new Big(1).div(value).round(INVERSE_DP, Big.roundHalfEven));
    }
    return new RateTable(rates, new Map(typed));
  }

  /** How much of `toAsset` one `fromAsset` is worth, before any spread. */
  midRate(fromAsset: string, toAsset: string): Big {
    if (fromAsset === toAsset) throw new SwapDirectionNotAllowedError(fromAsset, toAsset, 'the same asset on both sides is not an exchange');
    const rate = this.rates.get(`${fromAsset}/${toAsset}`);
    if (!rate) throw new SwapDirectionNotAllowedError(fromAsset, toAsset, 'no rate is available for this pair');
    return rate;
  }

  /** Every ordered pair with a rate (typed and derived). */
  pairs(): string[] {
    return [...this.rates.keys()];
  }

  /** The typed pairs (`BASE/QUOTE`) and their rates, in the order given; the inverses are derived from these. */
  typedRates(): ReadonlyMap<string, Big> {
    return this.typed;
  }

  /**
   * The same table with some typed rates replaced, every inverse derived again exactly as `parse`
   * derives it (a drifted rate moves its inverse, never separately). A pair that is not typed here
   * (an inverse, or a pair the table has not) or a rate that is not positive is refused.
   */
  withTypedRates(replaced: ReadonlyMap<string, Big>): RateTable {
    const typed = new Map(this.typed);
    for (const [pair, value] of replaced) {
      if (!typed.has(pair)) throw new Error(`rate ${pair} is not a typed pair of the table`);
      if (value.lte(0)) throw new Error(`rate ${pair} must be positive, not ${value.toFixed()}`);
      typed.set(pair, value);
    }
    return RateTable.derive(typed);
  }
}
