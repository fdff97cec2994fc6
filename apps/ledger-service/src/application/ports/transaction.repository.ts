import type { CursorPosition, TransactionStatus, TransactionType } from '@pfs/contracts';
import type { Transaction } from '../../domain/transaction';

export interface TransactionFilters {
  accountId?: string;
  type?: TransactionType;
  status?: TransactionStatus;
  /** Inclusive bounds on createdAt. */
  createdAfter?: Date;
  createdBefore?: Date;
}

export abstract class TransactionRepository {
  abstract insert(transaction: Transaction): Promise<void>;
  abstract findById(transactionId: string): Promise<Transaction | null>;
  /** Locks the row until the unit of work ends, so two moves of one transaction take turns. */
  abstract findByIdForUpdate(transactionId: string): Promise<Transaction | null>;
  /** Persists status, failure reason and updatedAt. */
  abstract saveStatus(transaction: Transaction): Promise<void>;
  /** The organization's transactions, newest first (createdAt, then id), strictly after `after`. */
  abstract list(organizationId: string, filters: TransactionFilters, after: CursorPosition | null, limit: number): Promise<Transaction[]>;
}
