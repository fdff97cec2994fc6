import type { AccountStatus } from '@pfs/contracts';

/** The spread and referrer share in force for an organization now: its tier's, or the platform default. */
export interface EffectivePricing {
  spreadBps: number;
  referrerShareBps: number;
}

/** What a quote is checked and priced by, as the ledger knows it now. */
export interface TradingTerms {
  /** The account's status, or null when it is not the organization's (as for none). */
  accountStatus: AccountStatus | null;
  pricing: EffectivePricing;
}

/** The ledger's accounts and pricing, asked about together: one question per quote. */
export abstract class TradingTermsDirectory {
  abstract termsOf(organizationId: string, accountId: string): Promise<TradingTerms>;
}
