import { Injectable } from '@nestjs/common';
import { Clock, type QuoteView } from '@pfs/contracts';
import { QuoteNotFoundError } from '../../../domain/quote-errors';
import { presentQuote } from '../../quote.presenter';
import { QuoteRepository } from '../../ports/quote.repository';
import type { GetQuoteQuery } from './get-quote.query';

/** GET /v1/quotes/{id}: as of now (past its expiry a PENDING quote reads EXPIRED); another organization's is `quote_not_found`. */
@Injectable()
export class GetQuoteUseCase {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly clock: Clock,
  ) {}

  async execute(query: GetQuoteQuery): Promise<QuoteView> {
    const quote = await this.quotes.findById(query.quoteId);
    if (!quote?.isVisibleTo(query.organizationId)) throw new QuoteNotFoundError(query.quoteId);
    return presentQuote(quote, this.clock.now());
  }
}
