import { Injectable } from '@nestjs/common';
import { Clock, DomainError, UnitOfWork, type TransactionView } from '@pfs/contracts';
import type { Quote } from '../../../domain/quote';
import { AccountCannotTradeError, QuoteExpiredError, QuoteNotFoundError } from '../../../domain/quote-errors';
import { QuoteRepository } from '../../ports/quote.repository';
import { TradeLedger } from '../../ports/trade-ledger';
import type { ExecuteQuoteCommand } from './execute-quote.command';

/** What the ledger answered for the quote: its trade, or why there is none. */
type LedgerAnswer = { trade: TransactionView } | { refusal: AccountCannotTradeError } | { expired: true };

/**
 * POST /v1/quotes/{quoteId}/execute. The ledger is asked first, with no transaction open here:
 * a PENDING quote before its expiry is posted (`trades.post`); past its expiry, when no trade
 * can be posted any more, the ledger is only asked whether it holds one (`trades.get`), a trade
 * posted in time whose recording here failed (a crash, a deadline). Then one transaction locks
 * the quote and stores it COMPLETED with the trade. The ledger posts at most one trade per quote
 * (the quote id is its operation id), so concurrent executes all get the same trade and take
 * turns on the lock: the first records it, the others find the quote COMPLETED and answer
 * `quote_already_used`. If this service dies between the ledger's answer and its commit, the
 * quote is still PENDING with its trade made: the next execute gets the same trade, and past
 * expiry the reconciler (QuoteReconciler) completes it without one.
 *
 * Refusals store what they leave behind after their unit of work rolls back: EXPIRED
 * (`quote_expired`) and FAILED (`forbidden`: the account can no longer trade). A short balance
 * (`insufficient_funds`) leaves the quote PENDING, to be executed once funded.
 */
@Injectable()
export class ExecuteQuoteUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly quotes: QuoteRepository,
    private readonly ledger: TradeLedger,
    private readonly clock: Clock,
  ) {}

  async execute(command: ExecuteQuoteCommand): Promise<TransactionView> {
    const quote = await this.quotes.findById(command.quoteId);
    if (!quote?.isVisibleTo(command.organizationId)) throw new QuoteNotFoundError(command.quoteId);
    quote.assertUnused();
    const answer = await this.askLedger(quote);
    return this.unitOfWork.run(() => this.record(quote, answer, this.clock.now()));
  }

  private async askLedger(quote: Quote): Promise<LedgerAnswer> {
    if (quote.statusAt(this.clock.now()) === 'EXPIRED') return this.postedIn(quote);
    try {
      return { trade: await this.ledger.post(quote) };
    } catch (error) {
      if (error instanceof AccountCannotTradeError) return { refusal: error };
      // Unanswered, and the quote expired meanwhile: the ledger can no longer post it, so
      // whether it did is settled, and the answer is a trade or quote_expired rather than 503.
      if (outcomeUnknown(error) && quote.statusAt(this.clock.now()) === 'EXPIRED') return this.postedIn(quote);
      throw error;
    }
  }

  private async postedIn(quote: Quote): Promise<LedgerAnswer> {
    const trade = await this.ledger.postedTrade(quote);
    return trade ? { trade } : { expired: true };
  }

  private async record(read: Quote, answer: LedgerAnswer, now: Date): Promise<TransactionView> {
    if ('trade' in answer) {
      // Quotes are never deleted: the one read above is there to lock.
      const quote = (await this.quotes.findByIdForUpdate(read.id)) ?? read;
      // COMPLETED by a concurrent execute with this same trade: this one is quote_already_used.
      const completed = quote.complete(answer.trade.transactionId, now);
      // The row lock makes the guard hold; false would mean the lock was not held.
      if (!(await this.quotes.update(completed, quote.props.status))) throw new Error(`quote ${quote.id} changed while locked for execution`);
      return answer.trade;
    }
    const refusal = 'refusal' in answer ? answer.refusal : new QuoteExpiredError(read.id, read.props.expiresAt);
    const left = 'refusal' in answer ? read.fail(refusal.message, now) : read.expireIfDue(now);
    if (left !== read) this.unitOfWork.afterRollback(() => this.store(left));
    throw refusal;
  }

  /** After a rollback: stored only over the PENDING it was read as. */
  private async store(quote: Quote): Promise<void> {
    await this.quotes.update(quote, 'PENDING');
  }
}

/** The post may or may not have been made: no answer in time, or the ledger failed unexpectedly. */
function outcomeUnknown(error: unknown): boolean {
  return !(error instanceof DomainError) || error.code === 'internal_error';
}
