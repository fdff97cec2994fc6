import type { TransactionView } from '@pfs/contracts';
import type { Quote } from '../../domain/quote';

/**
 * The ledger's side of an execute. The quote id is the ledger's operation id: however often a
 * quote is posted (a retry after a crash, a lost reply, concurrent executes), it has at most one
 * trade, and posting it again answers that trade.
 */
export abstract class TradeLedger {
  /**
   * Posts the quote's TRADE (and COMMISSION) as one journal entry; the TRADE transaction.
   * Refusals: `AccountCannotTradeError` when the account is no longer ACTIVE, `insufficient_funds`.
   * The ledger commits it before the quote's `expiresAt` or not at all: a post still unanswered
   * then is dropped. So past `expiresAt`, `postedTrade` answers for good.
   */
  abstract post(quote: Quote): Promise<TransactionView>;
  /** The quote's TRADE if the ledger has posted it, else null. */
  abstract postedTrade(quote: Quote): Promise<TransactionView | null>;
}
