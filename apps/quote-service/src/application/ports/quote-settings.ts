import type { TradeSizeLimits } from '../../domain/trade-size-limits';

/** The quote service's configuration, read once at start. */
export abstract class QuoteSettings {
  abstract readonly tradeLimits: TradeSizeLimits;
  /** Spread without a tier, in basis points (api-decisions §6): DEFAULT_SPREAD_BPS. */
  abstract readonly defaultSpreadBps: number;
}
