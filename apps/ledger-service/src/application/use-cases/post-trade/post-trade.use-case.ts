import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, IdGenerator, UnitOfWork, type TradePostingView } from '@pfs/contracts';
import { AccountNotActiveError, AccountNotFoundError, LedgerRequestError, PrimaryAccountNotFoundError, QuoteAlreadyTradedError } from '../../../domain/ledger-errors';
import { tradeTerms, type TradeTerms } from '../../../domain/trade-terms';
import { Transaction } from '../../../domain/transaction';
import { recordStatusChange } from '../../transaction-events';
import { presentTransaction } from '../../transaction.presenter';
import { findTradePosting, presentTradePosting } from '../../trade-posting';
import { AccountRepository } from '../../ports/account.repository';
import { Journal } from '../../ports/journal';
import { OrganizationDirectory } from '../../ports/organization-directory';
import { TransactionRepository } from '../../ports/transaction.repository';
import type { PostTradeCommand } from './post-trade.command';

/**
 * The ledger's side of POST /v1/quotes/{quoteId}/execute: the TRADE, its COMMISSION when one is
 * owed, one journal entry for both and an event for each, written in one database statement
 * after every check has read what it needs.
 *
 * The quote id is the operation id, beyond the command log's command id: the quote service and
 * the ledger are two databases, so a quote may be posted again under a new command id (the
 * quote service died after the ledger committed, then the client retried). A quote that has a
 * trade answers that trade and writes nothing: the database's unique (quote_id, type) refuses the
 * second post's statement (two concurrent posts take turns, the second refused once the first
 * has committed), and a post that does not go through, refused or not, reads the quote's trade
 * before it answers, so a repeat is answered the first's result even after the account changed.
 */
@Injectable()
export class PostTradeUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly transactions: TransactionRepository,
    private readonly journal: Journal,
    private readonly directory: OrganizationDirectory,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: PostTradeCommand): Promise<TradePostingView> {
    const terms = tradeTerms(command);
    try {
      return await this.post(command, terms);
    } catch (error) {
      // Read only when this post did not go through: a quote posted before (a retry under a new
      // command id) is answered its trade, even if the account or its balance changed since.
      const posted = await this.postedResult(command);
      if (posted) return posted;
      if (error instanceof QuoteAlreadyTradedError) throw new Error(`quote ${command.quoteId} has a trade that cannot be read back`, { cause: error });
      throw error;
    }
  }

  private async post(command: PostTradeCommand, terms: TradeTerms): Promise<TradePostingView> {
    // The client's standing (its events carry it) and, when a commission is owed, its earner's.
    const standing = await this.directory.standing(command.organizationId);
    const earnerId = terms.commission.gt(0) ? (standing.parentOrganizationId ?? standing.referrerOrganizationId) : null;
    const earner = earnerId ? await this.directory.standing(earnerId) : null;

    const account = await this.accounts.findOwnership(command.accountId);
    if (account?.organizationId !== command.organizationId) throw new AccountNotFoundError(command.accountId);
    if (account.status !== 'ACTIVE') throw new AccountNotActiveError(command.accountId, account.status);
    const recipient = earner ? { standing: earner, accountId: await this.primaryAccountOf(earner.organizationId) } : null;

    return this.unitOfWork.write(async () => {
      const now = this.clock.now();
      const { trade, commission, entry } = Transaction.trade({
        id: this.ids.next('transaction'),
        organizationId: command.organizationId,
        accountId: command.accountId,
        quoteId: command.quoteId,
        terms,
        commission: recipient ? { id: this.ids.next('transaction'), organizationId: recipient.standing.organizationId, accountId: recipient.accountId } : null,
        journalId: this.ids.next('journal'),
        now,
      });
      // Claims the quote (QuoteAlreadyTradedError when another post did first).
      await this.transactions.insert(trade.transaction);
      if (commission) await this.transactions.insert(commission.transaction);
      // A short balance (insufficient_funds) refuses the whole statement.
      await this.journal.post(entry, now);
      await recordStatusChange(this.outbox, trade, standing, now);
      if (commission && recipient) await recordStatusChange(this.outbox, commission, recipient.standing, now);
      return { trade: presentTransaction(trade.transaction), commission: commission ? presentTransaction(commission.transaction) : null };
    });
  }

  /** The quote's trade and commission as first answered, or null while the quote has no trade. */
  private async postedResult(command: PostTradeCommand): Promise<TradePostingView | null> {
    const posting = await findTradePosting(this.transactions, command.quoteId);
    if (!posting) return null;
    if (posting.trade.organizationId !== command.organizationId || posting.trade.props.accountId !== command.accountId) {
      // Quote ids are the quote service's own: this is a bug upstream, never a retry.
      throw new LedgerRequestError(`quoteId: quote ${command.quoteId} was traded on another account.`);
    }
    return presentTradePosting(posting);
  }

  /**
   * The commission's earner (the client's creator, else its referrer; with neither the platform
   * keeps the whole fee) is paid on its primary account.
   */
  private async primaryAccountOf(organizationId: string): Promise<string> {
    const accountId = await this.accounts.findPrimaryId(organizationId);
    // Opened before its organization's creation is answered, so missing only for an organization
    // whose opening failed: refuse, retryable, rather than keep what is owed to the earner.
    if (!accountId) throw new PrimaryAccountNotFoundError(organizationId);
    return accountId;
  }
}
