import { Injectable } from '@nestjs/common';
import { Clock, type QuoteView } from '@pfs/contracts';
import { QuoteNotFoundError } from '../../../domain/quote-errors';
import { presentQuote } from '../../quote.presenter';
import { QuoteReconciler } from '../../quote-reconciler';
import { QuoteRepository } from '../../ports/quote.repository';
import type { GetQuoteQuery } from './get-quote.query';

/**
 * GET /v1/quotes/{id}: as of now. A PENDING quote past its expiry is settled with the ledger
 * first, so it reads COMPLETED if its trade was made, else EXPIRED. Another organization's is
 * `quote_not_found`.
 */
@Injectable()
export class GetQuoteUseCase {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly reconciler: QuoteReconciler,
    private readonly clock: Clock,
  ) {}

  async execute(query: GetQuoteQuery): Promise<QuoteView> {
    const quote = await this.quotes.findById(query.quoteId);
    if (!quote?.isVisibleTo(query.organizationId)) throw new QuoteNotFoundError(query.quoteId);
    const now = this.clock.now();
    return presentQuote(await this.reconciler.settle(quote, now), now);
  }
}
