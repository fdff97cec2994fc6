import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type TransactionView } from '@pfs/contracts';
import type { Quote } from '../../../domain/quote';
import { AccountCannotTradeError, QuoteNotFoundError } from '../../../domain/quote-errors';
import { QuoteRepository } from '../../ports/quote.repository';
import { TradeLedger } from '../../ports/trade-ledger';
import type { ExecuteQuoteCommand } from './execute-quote.command';

/**
 * POST /v1/quotes/{quoteId}/execute (issue 13 §3): the ledger posts the trade while this
 * service holds the quote's row lock, and the quote is COMPLETED in the same transaction as the
 * lock. A concurrent execute waits on the lock, then finds the quote COMPLETED:
 * `quote_already_used`. If this service dies after the ledger committed, the quote is still
 * PENDING and the next execute posts again, which the ledger answers with the same trade
 * (the quote id is its operation id), even past the quote's expiry.
 *
 * Refusals roll everything back; what they must leave behind is stored after the rollback:
 * EXPIRED (`quote_expired`) and FAILED (`forbidden`: the account can no longer trade). A short
 * balance (`insufficient_funds`) leaves the quote PENDING, to be executed once funded.
 */
@Injectable()
export class ExecuteQuoteUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly quotes: QuoteRepository,
    private readonly ledger: TradeLedger,
    private readonly clock: Clock,
  ) {}

  execute(command: ExecuteQuoteCommand): Promise<TransactionView> {
    return this.unitOfWork.run(async () => {
      const quote = await this.quotes.findByIdForUpdate(command.quoteId);
      if (!quote?.isVisibleTo(command.organizationId)) throw new QuoteNotFoundError(command.quoteId);
      const now = this.clock.now();

      if (quote.statusAt(now) === 'EXPIRED') {
        // Posted before a crash, then expired (stored EXPIRED by the sweeper, or not yet): the
        // trade exists, so the quote completes with it.
        const posted = await this.ledger.postedTrade(quote);
        if (posted) return this.complete(quote, posted, now);
        const expired = quote.expireIfDue(now);
        if (expired !== quote) this.unitOfWork.afterRollback(() => this.store(expired));
      }
      quote.assertExecutable(now);

      try {
        return await this.complete(quote, await this.ledger.post(quote), now);
      } catch (error) {
        if (error instanceof AccountCannotTradeError) this.unitOfWork.afterRollback(() => this.store(quote.fail(error.message, now)));
        throw error;
      }
    });
  }

  private async complete(quote: Quote, trade: TransactionView, now: Date): Promise<TransactionView> {
    // The row lock makes the guard hold; false would mean the lock was not held.
    if (!(await this.quotes.update(quote.complete(trade.transactionId, now), quote.props.status))) {
      throw new Error(`quote ${quote.id} changed while locked for execution`);
    }
    return trade;
  }

  /** After a rollback the lock is gone: store it only over the PENDING it was read as. */
  private async store(quote: Quote): Promise<void> {
    await this.quotes.update(quote, 'PENDING');
  }
}
