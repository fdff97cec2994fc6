import { Big, Clock, CursorCodec, DomainError, type AccountStatus, type CursorPosition, type QuoteStatus, type SubOrgTier, type TransactionView } from '@pfs/contracts';
import { InMemoryUnitOfWork, ManualClock, newestFirstPage, SequentialIdGenerator } from '@pfs/test-doubles';
import { QuoteRepository } from '../../../src/application/ports/quote.repository';
import { QuoteSettings } from '../../../src/application/ports/quote-settings';
import { RateSource } from '../../../src/application/ports/rate-source';
import { TradeLedger } from '../../../src/application/ports/trade-ledger';
import { TradingTermsDirectory, type AccountHolder } from '../../../src/application/ports/trading-terms-directory';
import { QuoteReconciler } from '../../../src/application/quote-reconciler';
import { ExecuteQuoteUseCase } from '../../../src/application/use-cases/execute-quote/execute-quote.use-case';
import { CreateQuoteUseCase } from '../../../src/application/use-cases/create-quote/create-quote.use-case';
import { ReconcileQuotesUseCase } from '../../../src/application/use-cases/reconcile-quotes/reconcile-quotes.use-case';
import { GetPricingUseCase } from '../../../src/application/use-cases/get-pricing/get-pricing.use-case';
import { GetQuoteUseCase } from '../../../src/application/use-cases/get-quote/get-quote.use-case';
import { ListQuotesUseCase } from '../../../src/application/use-cases/list-quotes/list-quotes.use-case';
import type { Quote } from '../../../src/domain/quote';
import { AccountCannotTradeError, QuoteChangedError } from '../../../src/domain/quote-errors';
import { DEFAULT_RATES, RateTable } from '../../../src/domain/rate-table';
import { TradeSizeLimits } from '../../../src/domain/trade-size-limits';

/** The QuoteRepository contract over a map. */
export class InMemoryQuoteRepository extends QuoteRepository {
  readonly quotes = new Map<string, Quote>();

  async insert(quote: Quote): Promise<void> {
    this.quotes.set(quote.id, quote);
  }

  async findById(quoteId: string): Promise<Quote | null> {
    return this.quotes.get(quoteId) ?? null;
  }

  async update(quote: Quote, expected: QuoteStatus): Promise<boolean> {
    if (this.quotes.get(quote.id)?.props.status !== expected) return false;
    this.quotes.set(quote.id, quote);
    return true;
  }

  async replace(quote: Quote, expected: QuoteStatus): Promise<void> {
    if (!(await this.update(quote, expected))) throw new QuoteChangedError(quote.id);
  }

  /** What a rollback restores (see InMemoryUnitOfWork). */
  snapshot(): () => void {
    const saved = new Map(this.quotes);
    return () => {
      this.quotes.clear();
      for (const [id, quote] of saved) this.quotes.set(id, quote);
    };
  }

  async list(organizationId: string, filters: { status?: QuoteStatus }, now: Date, after: CursorPosition | null, limit: number): Promise<Quote[]> {
    const matching = [...this.quotes.values()].filter((quote) => quote.props.organizationId === organizationId && (filters.status === undefined || quote.statusAt(now) === filters.status));
    return newestFirstPage(matching, after, limit);
  }

  async findDue(now: Date, limit: number, organizationId?: string): Promise<Quote[]> {
    return [...this.quotes.values()]
      .filter((quote) => quote.isDue(now) && (organizationId === undefined || quote.props.organizationId === organizationId))
      .sort((a, b) => a.props.expiresAt.getTime() - b.props.expiresAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit);
  }
}

/**
 * Accounts and tiers as the test writes them: account id → holder and status, and the tier in
 * force per organization (the platform default otherwise), changeable mid-test.
 */
export class FixedTradingTermsDirectory extends TradingTermsDirectory {
  readonly accounts = new Map<string, { organizationId: string; status: AccountStatus }>([
    ['acct_1', { organizationId: 'org_1', status: 'ACTIVE' }],
    ['acct_other', { organizationId: 'org_2', status: 'ACTIVE' }],
  ]);
  readonly tiers = new Map<string, SubOrgTier>();

  async accountHolder(accountId: string): Promise<AccountHolder | null> {
    const account = this.accounts.get(accountId);
    return account ? { accountId, ...account } : null;
  }

  async effectiveTier(organizationId: string): Promise<SubOrgTier | null> {
    return this.tiers.get(organizationId) ?? null;
  }
}

/** What an execute whose reply the ledger lost fails with (see InMemoryTradeLedger.loseNextReply). */
export const REPLY_LOST = 'reply lost';

/**
 * The ledger's trades as the quote service sees them: one TRADE per quote, however often posted
 * (the quote id is the operation id), and none posted at or after the quote's expiry (the post's
 * deadline): such a post goes unanswered, as the real one times out. `refusal` makes the next
 * posts fail as the ledger would.
 */
export class InMemoryTradeLedger extends TradeLedger {
  readonly trades = new Map<string, TransactionView>();
  posts = 0;
  questions = 0;
  refusal: 'insufficient_funds' | 'account_suspended' | null = null;
  /** Called as a post arrives, before anything is recorded: a test moves the clock here (a slow queue). */
  beforePost: (() => void) | null = null;
  /**
   * Called after a post is recorded: a test throws here to lose the reply after the ledger
   * committed, or runs a concurrent execute that gets the same trade.
   */
  afterPost: (() => void | Promise<void>) | null = null;

  constructor(private readonly clock: Clock) {
    super();
  }

  /** The next post is made, and its reply lost with `message` (the executing process died, or its deadline passed). */
  loseNextReply(message = REPLY_LOST): void {
    this.afterPost = () => {
      this.afterPost = null;
      throw new Error(message);
    };
  }

  async post(quote: Quote): Promise<TransactionView> {
    this.posts += 1;
    this.beforePost?.();
    const posted = this.trades.get(quote.id);
    if (posted) return posted;
    if (this.clock.now().getTime() >= quote.props.expiresAt.getTime()) throw new Error('trades.post: no reply before its deadline');
    if (this.refusal === 'insufficient_funds') throw new DomainError('insufficient_funds', `Account ${quote.props.accountId} has too little ${quote.props.fromAsset}.`);
    if (this.refusal === 'account_suspended') throw new AccountCannotTradeError(`Account ${quote.props.accountId} is SUSPENDED: only an ACTIVE account can trade.`);
    const q = quote.props;
    const at = new Date(0).toISOString();
    const trade: TransactionView = {
      object: 'transaction',
      transactionId: `txn_${String(this.trades.size + 1).padStart(32, '0')}`,
      type: 'TRADE',
      status: 'COMPLETED',
      accountId: q.accountId,
      amount: q.terms.toAmount.toFixed(),
      asset: q.toAsset,
      chainName: null,
      beneficiaryId: null,
      quoteId: q.id,
      fee: q.terms.fee.toFixed(),
      feeAsset: q.fromAsset,
      counterpartyOrganizationId: null,
      reference: null,
      failureReason: null,
      destination: null,
      createdAt: at,
      updatedAt: at,
    };
    this.trades.set(quote.id, trade);
    await this.afterPost?.();
    return trade;
  }

  async postedTrade(quote: Quote): Promise<TransactionView | null> {
    this.questions += 1;
    return this.trades.get(quote.id) ?? null;
  }
}

export class TableRateSource extends RateSource {
  constructor(public table: RateTable = RateTable.parse(DEFAULT_RATES)) {
    super();
  }

  async midRate(fromAsset: string, toAsset: string): Promise<Big> {
    return this.table.midRate(fromAsset, toAsset);
  }
}

export class FixedQuoteSettings extends QuoteSettings {
  constructor(
    public tradeLimits: TradeSizeLimits = TradeSizeLimits.parse(''),
    readonly defaultSpreadBps = 100,
  ) {
    super();
  }
}

/** The quote service's use cases wired in memory. */
export function quoteInMemory() {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const quotes = new InMemoryQuoteRepository();
  const unitOfWork = new InMemoryUnitOfWork([quotes]);
  const ledger = new InMemoryTradeLedger(clock);
  const reconciler = new QuoteReconciler(unitOfWork, quotes, ledger);
  const rates = new TableRateSource();
  const terms = new FixedTradingTermsDirectory();
  const settings = new FixedQuoteSettings();
  const cursors = new CursorCodec('test-cursor-secret');
  const executeQuote = new ExecuteQuoteUseCase(unitOfWork, quotes, ledger, clock);
  return {
    clock,
    quotes,
    rates,
    terms,
    settings,
    ledger,
    createQuote: new CreateQuoteUseCase(unitOfWork, quotes, rates, terms, settings, ids, clock),
    getQuote: new GetQuoteUseCase(quotes, reconciler, clock),
    getPricing: new GetPricingUseCase(terms, settings),
    listQuotes: new ListQuotesUseCase(quotes, reconciler, cursors, clock),
    reconcileQuotes: new ReconcileQuotesUseCase(reconciler, clock),
    executeQuote,
    /** Executes the quote (org_1's) while the ledger's reply is lost: the trade is made, the quote not recorded. */
    executeLosingTheReply: async (quoteId: string): Promise<void> => {
      ledger.loseNextReply();
      const outcome = await executeQuote.execute({ organizationId: 'org_1', quoteId }).then(
        () => new Error('the execute answered although its reply was lost'),
        (error: unknown) => ((error as Error).message === REPLY_LOST ? null : error),
      );
      if (outcome) throw outcome;
    },
  };
}
