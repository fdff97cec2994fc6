import { Injectable } from '@nestjs/common';
import { Clock } from '@pfs/contracts';
import { QuoteRepository } from '../../ports/quote.repository';

/** The sweeper's pass: stores EXPIRED on the PENDING quotes past their expiry, so the rows agree with what readers see. */
@Injectable()
export class ExpireQuotesUseCase {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.quotes.expireDue(this.clock.now());
  }
}
