/** The spread and referrer share in force for an organization now: its tier's, or the platform default. */
export interface EffectivePricing {
  spreadBps: number;
  referrerShareBps: number;
}

export abstract class PricingDirectory {
  abstract pricingOf(organizationId: string): Promise<EffectivePricing>;
}
