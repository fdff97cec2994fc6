import { Injectable } from '@nestjs/common';
import { Clock, DomainError, UnitOfWork, type TransactionView } from '@pfs/contracts';
import type { Quote } from '../../../domain/quote';
import { AccountCannotTradeError, QuoteChangedError, QuoteExpiredError, QuoteNotFoundError } from '../../../domain/quote-errors';
import { QuoteRepository } from '../../ports/quote.repository';
import { TradeLedger } from '../../ports/trade-ledger';
import type { ExecuteQuoteCommand } from './execute-quote.command';

/** What the ledger answered for the quote: its trade, or why there is none. */
type LedgerAnswer = { trade: TransactionView } | { refusal: AccountCannotTradeError } | { expired: true };

/**
 * POST /v1/quotes/{quoteId}/execute. The ledger is asked first, with no transaction open here:
 * a PENDING quote before its expiry is posted (`trades.post`); past its expiry, when no trade
 * can be posted any more, the ledger is only asked whether it holds one (`trades.get`), a trade
 * posted in time whose recording here failed (a crash, a deadline). Then one statement stores
 * the quote COMPLETED with the trade, if it is still as it was read. The ledger posts at most one
 * trade per quote (the quote id is its operation id), so concurrent executes all get the same
 * trade: the first statement records it, the others find the quote changed, read it COMPLETED and
 * answer `quote_already_used`. If this service dies between the ledger's answer and its commit, the
 * quote is still PENDING with its trade made: the next execute gets the same trade, and past
 * expiry the reconciler (QuoteReconciler) completes it without one.
 *
 * Refusals store what they leave behind, and nothing else: EXPIRED (`quote_expired`) and FAILED
 * (`forbidden`: the account can no longer trade). A short balance (`insufficient_funds`) leaves
 * the quote PENDING, to be executed once funded.
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
    return this.record(quote, answer, this.clock.now());
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
    if ('trade' in answer) return this.recordTrade(read, answer.trade, now);
    const refusal = 'refusal' in answer ? answer.refusal : new QuoteExpiredError(read.id, read.props.expiresAt);
    const left = 'refusal' in answer ? read.fail(refusal.message, now) : read.expireIfDue(now);
    if (left !== read) await this.store(left);
    throw refusal;
  }

  /**
   * Stores the quote COMPLETED with its trade in one statement, guarded by the status it was read
   * with. Changed meanwhile (a concurrent execute recorded this same trade, or the reconciler
   * expired it), nothing is written and the stored quote decides again: COMPLETED is
   * `quote_already_used`, EXPIRED is completed with the trade. Each turn moves the quote forward,
   * so this ends.
   */
  private async recordTrade(read: Quote, trade: TransactionView, now: Date): Promise<TransactionView> {
    const completed = read.complete(trade.transactionId, now);
    try {
      return await this.unitOfWork.write(async () => {
        await this.quotes.replace(completed, read.props.status);
        return trade;
      });
    } catch (error) {
      if (!(error instanceof QuoteChangedError)) throw error;
      // Quotes are never deleted.
      const stored = await this.quotes.findById(read.id);
      if (!stored) throw new Error(`quote ${read.id} vanished while it was executed`, { cause: error });
      return this.recordTrade(stored, trade, now);
    }
  }

  /** A refusal's leftover: stored only over the PENDING it was read as. */
  private async store(quote: Quote): Promise<void> {
    await this.quotes.update(quote, 'PENDING');
  }
}

/** The post may or may not have been made: no answer in time, or the ledger failed unexpectedly. */
function outcomeUnknown(error: unknown): boolean {
  return !(error instanceof DomainError) || error.code === 'internal_error';
}
