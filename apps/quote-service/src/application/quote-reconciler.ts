import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@pfs/contracts';
import type { Quote } from '../domain/quote';
import { QuoteRepository } from './ports/quote.repository';
import { TradeLedger } from './ports/trade-ledger';

/** How many due quotes are settled at once: the ledger is asked about this many in parallel. */
export const RECONCILE_BATCH = 10;

/** How the quotes a reconciliation settled ended. */
export interface ReconcileCounts {
  completed: number;
  expired: number;
}

/**
 * Settles the quotes past their expiry with the ledger (`trades.get`): one whose trade the ledger
 * holds ends COMPLETED with it (its execute posted in time, then this service failed to record
 * it: a crash, a deadline), any other EXPIRED. The ledger never posts a trade after the quote's
 * expiry, so its answer is final. Questions first, then one unit of work per quote. Used by the
 * sweeper's pass, and by the reads before they show a due quote, so no reader sees a traded
 * quote as EXPIRED.
 */
@Injectable()
export class QuoteReconciler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly quotes: QuoteRepository,
    private readonly ledger: TradeLedger,
  ) {}

  /** The quote as it stands once settled: as given unless it is due at `now`. */
  async settle(quote: Quote, now: Date): Promise<Quote> {
    if (!quote.isDue(now)) return quote;
    const trade = await this.ledger.postedTrade(quote);
    const settled = trade ? quote.complete(trade.transactionId, now) : quote.expireIfDue(now);
    return this.unitOfWork.run(async () => {
      if (await this.quotes.update(settled, 'PENDING')) return settled;
      // Settled meanwhile (by an execute that recorded its trade, another read or the sweeper): as stored.
      return (await this.quotes.findById(quote.id)) ?? settled;
    });
  }

  /** Settles every quote due at `now`, one organization's only when given. */
  async settleDue(now: Date, organizationId?: string): Promise<ReconcileCounts> {
    const counts: ReconcileCounts = { completed: 0, expired: 0 };
    for (;;) {
      // Each settled quote leaves PENDING, so the next batch holds only the ones not yet asked about.
      const due = await this.quotes.findDue(now, RECONCILE_BATCH, organizationId);
      for (const quote of await Promise.all(due.map((candidate) => this.settle(candidate, now)))) {
        if (quote.props.status === 'COMPLETED') counts.completed += 1;
        if (quote.props.status === 'EXPIRED') counts.expired += 1;
      }
      if (due.length < RECONCILE_BATCH) return counts;
    }
  }
}
