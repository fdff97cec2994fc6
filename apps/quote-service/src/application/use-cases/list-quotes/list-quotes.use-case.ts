import { Injectable } from '@nestjs/common';
import { Clock, CursorCodec, listIdentity, type PageView, type QuoteView } from '@pfs/contracts';
import { presentQuote } from '../../quote.presenter';
import { QuoteRepository } from '../../ports/quote.repository';
import type { ListQuotesQuery } from './list-quotes.query';

export const QUOTES_LIST = 'quotes';

/** GET /v1/quotes: newest first, statuses as of now (the filter agrees with what each item shows). */
@Injectable()
export class ListQuotesUseCase {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
  ) {}

  execute(query: ListQuotesQuery): Promise<PageView<QuoteView>> {
    const now = this.clock.now();
    return this.cursors.page(
      listIdentity(QUOTES_LIST, query.organizationId, query.filters),
      query.page,
      (after, take) => this.quotes.list(query.organizationId, query.filters, now, after, take),
      (quote) => presentQuote(quote, now),
    );
  }
}
