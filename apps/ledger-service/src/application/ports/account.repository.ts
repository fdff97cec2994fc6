import type { CursorPosition } from '@pfs/contracts';
import type { Account } from '../../domain/account';

export abstract class AccountRepository {
  abstract findById(accountId: string): Promise<Account | null>;
  /** Newest first, strictly after `after` in that order; reads `limit` rows. */
  abstract listByOrganization(organizationId: string, after: CursorPosition | null, limit: number): Promise<Account[]>;
  /** Opens the account unless an account with this id exists; true when it was created. */
  abstract openIfAbsent(account: Account): Promise<boolean>;
}
