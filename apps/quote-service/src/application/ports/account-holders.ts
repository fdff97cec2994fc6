import type { AccountHolder } from './trading-terms-directory';

/**
 * The quote service's own copy of the ledger's accounts: who holds each (which never changes)
 * and its status, as the ledger last answered.
 */
export abstract class AccountHolders {
  /** The copy's row, or undefined for an account it has never heard of. */
  abstract find(accountId: string): Promise<AccountHolder | undefined>;
  /** Takes the ledger's answer, replacing the status the copy had. */
  abstract remember(holder: AccountHolder): Promise<void>;
}
