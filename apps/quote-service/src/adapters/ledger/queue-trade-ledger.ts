import { Injectable } from '@nestjs/common';
import type { TransactionView } from '@pfs/contracts';
import { CommandBus, COMMIT_MARGIN_MS, RemoteDomainError, withinCurrentCommand } from '@pfs/messaging';
import { currentDeadline } from '@pfs/platform';
import { TradeLedger } from '../../application/ports/trade-ledger';
import type { Quote } from '../../domain/quote';
import { AccountCannotTradeError } from '../../domain/quote-errors';

/**
 * What an execute keeps of its own deadline after the ledger's: the time to record the trade on
 * the quote. Without it the ledger could commit the trade so late that the quote's own
 * transaction is refused at its deadline, and the client is answered 503 for a trade made.
 */
export const RECORD_MARGIN_MS = 2 * COMMIT_MARGIN_MS;

/**
 * How long a post waits for the ledger, which is also the deadline the ledger commits by (it
 * drops a command past its deadline): never past the quote's expiry, so that once a quote has
 * expired the ledger's answer about its trade is final; and within the execute's own deadline
 * less RECORD_MARGIN_MS.
 */
export function tradePostTimeoutMs(expiresAt: Date, deadline: number | undefined, now: number): number {
  const notAfter = deadline === undefined ? expiresAt.getTime() : Math.min(expiresAt.getTime(), deadline - RECORD_MARGIN_MS);
  return Math.max(1, notAfter - now);
}

/** `trades.post` and `trades.get` on the ledger's queue. */
@Injectable()
export class QueueTradeLedger extends TradeLedger {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  async post(quote: Quote): Promise<TransactionView> {
    const q = quote.props;
    const payload = {
      organizationId: q.organizationId,
      accountId: q.accountId,
      quoteId: q.id,
      fromAsset: q.fromAsset,
      fromAmount: q.terms.fromAmount.toFixed(),
      toAsset: q.toAsset,
      toAmount: q.terms.toAmount.toFixed(),
      fee: q.terms.fee.toFixed(),
      commission: quote.commission().toFixed(),
    };
    try {
      // One command id per quote: a re-sent post (this job re-delivered, or a concurrent
      // execute) is answered from the ledger's command log; a post under another id still
      // finds the quote's trade.
      const posting = await this.bus.send('ledger', 'trades.post', payload, {
        requestId: withinCurrentCommand().requestId,
        commandId: `trade:${q.id}`,
        timeoutMs: tradePostTimeoutMs(q.expiresAt, currentDeadline(), Date.now()),
      });
      return posting.trade;
    } catch (error) {
      // The ledger's `forbidden` for a trade is its account no longer being ACTIVE.
      if (error instanceof RemoteDomainError && error.code === 'forbidden') throw new AccountCannotTradeError(error.message);
      throw error;
    }
  }

  async postedTrade(quote: Quote): Promise<TransactionView | null> {
    const posting = await this.bus.send('ledger', 'trades.get', { organizationId: quote.props.organizationId, quoteId: quote.id }, withinCurrentCommand());
    return posting?.trade ?? null;
  }
}
