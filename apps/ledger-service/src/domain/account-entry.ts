import type { Big } from '@pfs/contracts';

/** One journal line on a customer account, with the balance it left: a statement line. */
export interface AccountEntry {
  /** Orders an account's lines (newest first on the statement). */
  sequence: string;
  journalId: string;
  transactionId: string;
  accountId: string;
  asset: string;
  amount: Big;
  balanceAfter: Big;
  createdAt: Date;
}
