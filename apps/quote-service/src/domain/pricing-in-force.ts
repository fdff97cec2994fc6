import type { SubOrgTier } from '@pfs/contracts';

/** The spread and referrer share a quote is priced by: its organization's tier's, or the platform default with no share. */
export interface PricingInForce {
  spreadBps: number;
  referrerShareBps: number;
}

export function pricingInForce(tier: SubOrgTier | null, defaultSpreadBps: number): PricingInForce {
  return tier ? { spreadBps: tier.spreadBps, referrerShareBps: tier.referrerShareBps } : { spreadBps: defaultSpreadBps, referrerShareBps: 0 };
}
