import type { CursorPosition, QuoteStatus } from '@pfs/contracts';
import type { Quote } from '../../domain/quote';

/** Quotes at rest. A status filter reads statuses as of `now`: a PENDING quote past its expiry counts as EXPIRED. */
export abstract class QuoteRepository {
  abstract insert(quote: Quote): Promise<void>;
  /** Any organization's (the use case decides what is visible). */
  abstract findById(quoteId: string): Promise<Quote | null>;
  /** Stores the quote's new state if its stored status is still `expected`; false if it was not. */
  abstract update(quote: Quote, expected: QuoteStatus): Promise<boolean>;
  /**
   * As `update`, as a write of the unit of work (its one statement in a write-only unit): when the
   * stored status is no longer `expected`, `QuoteChangedError`, and the unit writes nothing.
   */
  abstract replace(quote: Quote, expected: QuoteStatus): Promise<void>;
  abstract list(organizationId: string, filters: { status?: QuoteStatus }, now: Date, after: CursorPosition | null, limit: number): Promise<Quote[]>;
  /** Up to `limit` PENDING quotes past their expiry at `now` (see Quote.isDue), the longest expired first; one organization's only when given. */
  abstract findDue(now: Date, limit: number, organizationId?: string): Promise<Quote[]>;
}
