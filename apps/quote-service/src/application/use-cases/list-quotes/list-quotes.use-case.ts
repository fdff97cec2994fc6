import { Injectable } from '@nestjs/common';
import { Clock, CursorCodec, listIdentity, type PageView, type QuoteView } from '@pfs/contracts';
import { presentQuote } from '../../quote.presenter';
import { QuoteReconciler } from '../../quote-reconciler';
import { QuoteRepository } from '../../ports/quote.repository';
import type { ListQuotesQuery } from './list-quotes.query';

export const QUOTES_LIST = 'quotes';

/**
 * GET /v1/quotes: newest first, statuses as of now. The organization's PENDING quotes past their
 * expiry are settled with the ledger first (the sweeper leaves few), so what is listed and
 * filtered is what the ledger agrees with.
 */
@Injectable()
export class ListQuotesUseCase {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly reconciler: QuoteReconciler,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
  ) {}

  async execute(query: ListQuotesQuery): Promise<PageView<QuoteView>> {
    const now = this.clock.now();
    await this.reconciler.settleDue(now, query.organizationId);
    return this.cursors.page(
      listIdentity(QUOTES_LIST, query.organizationId, query.filters),
      query.page,
      (after, take) => this.quotes.list(query.organizationId, query.filters, now, after, take),
      (quote) => presentQuote(quote, now),
    );
  }
}
