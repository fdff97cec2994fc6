import { Injectable } from '@nestjs/common';
import type { PricingView } from '@pfs/contracts';
import { pricingInForce } from '../../../domain/pricing-in-force';
import { QuoteSettings } from '../../ports/quote-settings';
import { TradingTermsDirectory } from '../../ports/trading-terms-directory';
import type { GetPricingQuery } from './get-pricing.query';

/**
 * The pricing of GET /v1/fees: the tier in force and its spread and referrer share, or the
 * platform default, read where quotes read them, so what the fees show is what the next quote is
 * priced by.
 */
@Injectable()
export class GetPricingUseCase {
  constructor(
    private readonly terms: TradingTermsDirectory,
    private readonly settings: QuoteSettings,
  ) {}

  async execute(query: GetPricingQuery): Promise<PricingView> {
    const tier = await this.terms.effectiveTier(query.organizationId);
    return { tier: tier && { key: tier.key, label: tier.label }, ...pricingInForce(tier, this.settings.defaultSpreadBps) };
  }
}
