import { Injectable } from '@nestjs/common';
import type { TradePostingView } from '@pfs/contracts';
import { TransactionRepository } from '../../ports/transaction.repository';
import { findTradePosting, presentTradePosting } from '../../trade-posting';
import type { GetTradeQuery } from './get-trade.query';

/**
 * Whether a quote was traded, and how: what the quote service reads when an execute finds its
 * quote past its expiry, in case the ledger posted before a crash (then the quote completes
 * rather than expires). Null for no trade, and for another organization's.
 */
@Injectable()
export class GetTradeUseCase {
  constructor(private readonly transactions: TransactionRepository) {}

  async execute(query: GetTradeQuery): Promise<TradePostingView | null> {
    const posting = await findTradePosting(this.transactions, query.quoteId);
    return posting?.trade.organizationId === query.organizationId ? presentTradePosting(posting) : null;
  }
}
