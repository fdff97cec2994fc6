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
  /**
   * Writes the transaction in the surrounding unit of work. A transaction of a quote whose type the
   * quote already has (a TRADE, a COMMISSION) is refused with `QuoteAlreadyTradedError`, and the
   * unit writes nothing; a concurrent one for the same quote is waited for, so the refusal only
   * ever comes once the other has committed.
   */
  abstract insert(transaction: Transaction): Promise<void>;
  /** The transactions of a quote (its TRADE and COMMISSION), whoever's account they are on. */
  abstract findByQuote(quoteId: string): Promise<Transaction[]>;
  abstract findById(transactionId: string): Promise<Transaction | null>;
  /** Locks the row until the unit of work ends, so two moves of one transaction take turns. */
  abstract findByIdForUpdate(transactionId: string): Promise<Transaction | null>;
  /**
   * Payouts still moving (EXPECTED or LOCKED) whose last change is at or before `changedBy`,
   * oldest change first: the ids only, each to be locked and re-checked by its mover.
   */
  abstract findPayoutsDue(changedBy: Date, limit: number): Promise<string[]>;
  /** Persists status, failure reason and updatedAt. */
  abstract saveStatus(transaction: Transaction): Promise<void>;
  /** The organization's transactions, newest first (createdAt, then id), strictly after `after`. */
  abstract list(organizationId: string, filters: TransactionFilters, after: CursorPosition | null, limit: number): Promise<Transaction[]>;
}
