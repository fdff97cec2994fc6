import { QuoteSettings } from '../../application/ports/quote-settings';
import { TradeSizeLimits } from '../../domain/trade-size-limits';

/**
 * QUOTE_TRADE_LIMITS (`FROM/TO=MIN:MAX,…` in the source asset; pairs not named use the source
 * asset's default), DEFAULT_SPREAD_BPS (default 100) and QUOTE_SWEEP_INTERVAL_MS. Read once;
 * anything malformed stops the service at start.
 */
export class EnvQuoteSettings extends QuoteSettings {
  readonly tradeLimits: TradeSizeLimits;
  readonly defaultSpreadBps: number;
  readonly sweepIntervalMs: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    super();
    this.tradeLimits = TradeSizeLimits.parse(env.QUOTE_TRADE_LIMITS ?? '');
    const spread = env.DEFAULT_SPREAD_BPS ?? '100';
    if (!/^[0-9]{1,4}$/.test(spread) || Number(spread) > 10000) throw new Error(`DEFAULT_SPREAD_BPS must be 0–10000, not "${spread}"`);
    this.defaultSpreadBps = Number(spread);
    const interval = env.QUOTE_SWEEP_INTERVAL_MS ?? '10000';
    if (!/^[1-9][0-9]{2,6}$/.test(interval)) throw new Error(`QUOTE_SWEEP_INTERVAL_MS must be 100–9999999, not "${interval}"`);
    this.sweepIntervalMs = Number(interval);
  }
}
