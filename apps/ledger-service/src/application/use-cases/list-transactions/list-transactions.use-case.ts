import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type PageView, type TransactionView } from '@pfs/contracts';
import { LedgerRequestError } from '../../../domain/ledger-errors';
import { presentTransaction } from '../../transaction.presenter';
import { TransactionRepository, type TransactionFilters } from '../../ports/transaction.repository';
import type { ListTransactionsQuery } from './list-transactions.query';

export const TRANSACTIONS_LIST = 'transactions';

function instant(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new LedgerRequestError(`${field}: must be an ISO 8601 timestamp`);
  return at;
}

/** GET /v1/transactions: newest first, filtered; a cursor is bound to its filters. */
@Injectable()
export class ListTransactionsUseCase {
  constructor(
    private readonly transactions: TransactionRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async execute(query: ListTransactionsQuery): Promise<PageView<TransactionView>> {
    const filters: TransactionFilters = {
      accountId: query.filters.accountId,
      type: query.filters.type,
      status: query.filters.status,
      createdAfter: instant('createdAfter', query.filters.createdAfter),
      createdBefore: instant('createdBefore', query.filters.createdBefore),
    };
    return this.cursors.page(
      listIdentity(TRANSACTIONS_LIST, query.organizationId, query.filters),
      query.page,
      (after, take) => this.transactions.list(query.organizationId, filters, after, take),
      presentTransaction,
    );
  }
}
