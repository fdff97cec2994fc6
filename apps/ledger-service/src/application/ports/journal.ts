import type { AccountEntry } from '../../domain/account-entry';
import type { JournalEntry } from '../../domain/journal-entry';

/** The double-entry journal: the only way a balance changes. */
export abstract class Journal {
  /**
   * Writes the entry in the surrounding unit of work: customer balance rows are updated in the
   * entry's lock order, postings inserted. `InsufficientFundsError` when a customer balance would
   * go below zero (nothing is written then: the unit of work rolls back).
   */
  abstract post(entry: JournalEntry, at: Date): Promise<void>;
  /** The account's lines, newest first, strictly before the line `beforeSequence` when given. */
  abstract entriesOf(accountId: string, beforeSequence: string | null, limit: number): Promise<AccountEntry[]>;
}
