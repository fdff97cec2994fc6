import type { AccountStatus, SubOrgTier } from '@pfs/contracts';

/** Which organization holds an account, and the account's status: what a quote is checked by. */
export interface AccountHolder {
  accountId: string;
  organizationId: string;
  status: AccountStatus;
}

/**
 * What quotes are checked and priced by, from the quote service's own copies: the ledger's
 * accounts and the organization service's tiers, so a quote asks no other service once both are
 * known. A change of tier reaches the copy within the relay's lag.
 */
export abstract class TradingTermsDirectory {
  /**
   * The account's holder and status, or null for an account the ledger does not hold. Only an
   * ACTIVE status is answered from the copy: any other is the ledger's answer now, so a quote is
   * never refused on the copy alone.
   */
  abstract accountHolder(accountId: string): Promise<AccountHolder | null>;
  /** The pricing tier in force for the organization, or null for the platform default. */
  abstract effectiveTier(organizationId: string): Promise<SubOrgTier | null>;
}
