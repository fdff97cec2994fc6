import { Injectable } from '@nestjs/common';
import type { TransactionView } from '@pfs/contracts';
import { CommandBus, RemoteDomainError, withinCurrentCommand } from '@pfs/messaging';
import { TradeLedger } from '../../application/ports/trade-ledger';
import type { Quote } from '../../domain/quote';
import { AccountCannotTradeError } from '../../domain/quote-errors';

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
      // One command id per quote: a re-sent post (this job re-delivered) is answered from the
      // ledger's command log; a post under another id still finds the quote's trade.
      const posting = await this.bus.send('ledger', 'trades.post', payload, { ...withinCurrentCommand(), commandId: `trade:${q.id}` });
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
