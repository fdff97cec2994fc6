import type { TradePostingView } from '@pfs/contracts';
import type { Transaction } from '../domain/transaction';
import type { TransactionRepository } from './ports/transaction.repository';
import { presentTransaction } from './transaction.presenter';

export interface TradePosting {
  trade: Transaction;
  commission: Transaction | null;
}

/** A quote's TRADE and its COMMISSION as posted, or null while the quote has no trade. */
export async function findTradePosting(transactions: TransactionRepository, quoteId: string): Promise<TradePosting | null> {
  const posted = await transactions.findByQuote(quoteId);
  const trade = posted.find((transaction) => transaction.type === 'TRADE');
  if (!trade) return null;
  return { trade, commission: posted.find((transaction) => transaction.type === 'COMMISSION') ?? null };
}

export function presentTradePosting(posting: TradePosting): TradePostingView {
  return { trade: presentTransaction(posting.trade), commission: posting.commission ? presentTransaction(posting.commission) : null };
}
