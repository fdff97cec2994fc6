import type { CursorPosition } from '@pfs/contracts';
import type { Account, AccountStatus } from '../../domain/account';

export abstract class AccountRepository {
  abstract findById(accountId: string): Promise<Account | null>;
  /** Newest first, strictly after `after` in that order; reads `limit` rows. */
  abstract listByOrganization(organizationId: string, after: CursorPosition | null, limit: number): Promise<Account[]>;
  /** Opens the account unless an account with this id exists; true when it was created. */
  abstract openIfAbsent(account: Account): Promise<boolean>;
  /** Owner and status without balances or methods (the money paths' check); null when unknown. */
  abstract findOwnership(accountId: string): Promise<{ organizationId: string; status: AccountStatus } | null>;
  /** Persists name, description and updatedAt. */
  abstract saveDetails(account: Account): Promise<void>;
  /** The id of the organization's primary account, or null while it has none. */
  abstract findPrimaryId(organizationId: string): Promise<string | null>;
  /**
   * Locks the account row until the surrounding unit of work ends, so work on one account is
   * serialised; answers the owning organization's id, or null for an unknown account.
   */
  abstract lockOwner(accountId: string): Promise<string | null>;
}
