import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage } from '@pfs/test-doubles';
import { TransactionRepository, type TransactionFilters } from '../../../src/application/ports/transaction.repository';
import { QuoteAlreadyTradedError } from '../../../src/domain/ledger-errors';
import type { Transaction } from '../../../src/domain/transaction';

/** The TransactionRepository contract over a map, for use-case unit tests. */
export class InMemoryTransactionRepository extends TransactionRepository {
  readonly transactions = new Map<string, Transaction>();

  async insert(transaction: Transaction): Promise<void> {
    if (this.transactions.has(transaction.id)) throw new Error(`transaction ${transaction.id} exists`);
    const { quoteId, type } = transaction.props;
    if (quoteId && [...this.transactions.values()].some((existing) => existing.props.quoteId === quoteId && existing.props.type === type)) {
      throw new QuoteAlreadyTradedError(quoteId);
    }
    this.transactions.set(transaction.id, transaction);
  }

  async findByQuote(quoteId: string): Promise<Transaction[]> {
    return [...this.transactions.values()].filter((transaction) => transaction.props.quoteId === quoteId);
  }

  /** What a rollback restores (see InMemoryUnitOfWork). */
  snapshot(): () => void {
    const saved = new Map(this.transactions);
    return () => {
      this.transactions.clear();
      for (const [id, transaction] of saved) this.transactions.set(id, transaction);
    };
  }

  async findById(transactionId: string): Promise<Transaction | null> {
    return this.transactions.get(transactionId) ?? null;
  }

  /** One caller at a time in unit tests: nothing to lock. */
  findByIdForUpdate(transactionId: string): Promise<Transaction | null> {
    return this.findById(transactionId);
  }

  async findPayoutsDue(changedBy: Date, limit: number): Promise<string[]> {
    return [...this.transactions.values()]
      .filter((transaction) => transaction.isPayout && ['EXPECTED', 'LOCKED'].includes(transaction.status) && transaction.props.updatedAt <= changedBy)
      .sort((a, b) => a.props.updatedAt.getTime() - b.props.updatedAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit)
      .map((transaction) => transaction.id);
  }

  async saveStatus(transaction: Transaction): Promise<void> {
    if (!this.transactions.has(transaction.id)) throw new Error(`no transaction ${transaction.id} to save`);
    this.transactions.set(transaction.id, transaction);
  }

  async list(organizationId: string, filters: TransactionFilters, after: CursorPosition | null, limit: number): Promise<Transaction[]> {
    const matching = [...this.transactions.values()]
      .filter((transaction) => {
        const t = transaction.props;
        return (
          t.organizationId === organizationId &&
          (!filters.accountId || t.accountId === filters.accountId) &&
          (!filters.type || t.type === filters.type) &&
          (!filters.status || t.status === filters.status) &&
          (!filters.createdAfter || t.createdAt >= filters.createdAfter) &&
          (!filters.createdBefore || t.createdAt <= filters.createdBefore)
        );
      });
    return newestFirstPage(matching, after, limit);
  }
}
