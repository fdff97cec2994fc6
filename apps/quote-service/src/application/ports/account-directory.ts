import type { AccountStatus } from '@pfs/contracts';

/** The ledger's accounts: the status of one of the organization's, or null for any other. */
export abstract class AccountDirectory {
  abstract statusOf(organizationId: string, accountId: string): Promise<AccountStatus | null>;
}
