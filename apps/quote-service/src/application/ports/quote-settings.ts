import type { TradeSizeLimits } from '../../domain/trade-size-limits';

/** The quote service's configuration, read once at start. */
export abstract class QuoteSettings {
  abstract readonly tradeLimits: TradeSizeLimits;
}
