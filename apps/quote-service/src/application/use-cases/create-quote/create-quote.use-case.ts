import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, UnitOfWork, type QuoteView } from '@pfs/contracts';
import { Quote } from '../../../domain/quote';
import { AccountNotFoundError, InvalidQuoteRequestError } from '../../../domain/quote-errors';
import { pricingInForce } from '../../../domain/pricing-in-force';
import { priceBuying, priceSelling, type PricingInput } from '../../../domain/quote-pricing';
import { quoteRequest } from '../../../domain/quote-request';
import { presentQuote } from '../../quote.presenter';
import { QuoteRepository } from '../../ports/quote.repository';
import { QuoteSettings } from '../../ports/quote-settings';
import { RateSource } from '../../ports/rate-source';
import { TradingTermsDirectory } from '../../ports/trading-terms-directory';
import type { CreateQuoteCommand } from './create-quote.command';

/**
 * POST /v1/quotes (spec 4.7, api-decisions §6): prices the request at the mid-rate less the
 * spread in force now, which the quote keeps (a later tier change never reprices it), for five
 * minutes. Cheap refusals first; the account and the tier are read (from this service's own
 * copies) only for a request that could be quoted, before the one statement that stores the quote.
 */
@Injectable()
export class CreateQuoteUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly quotes: QuoteRepository,
    private readonly rates: RateSource,
    private readonly terms: TradingTermsDirectory,
    private readonly settings: QuoteSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateQuoteCommand): Promise<QuoteView> {
    const request = quoteRequest(command);
    const midRate = await this.rates.midRate(request.from.code, request.to.code);
    const [holder, tier] = await Promise.all([this.terms.accountHolder(command.accountId), this.terms.effectiveTier(command.organizationId)]);
    // Another organization's account answers as if it did not exist.
    if (holder?.organizationId !== command.organizationId) throw new AccountNotFoundError(command.accountId);
    if (holder.status !== 'ACTIVE') throw new InvalidQuoteRequestError('accountId', `account ${command.accountId} is ${holder.status}: only an ACTIVE account can trade`);
    const { spreadBps, referrerShareBps } = pricingInForce(tier, this.settings.defaultSpreadBps);
    const input: PricingInput = { midRate, spreadBps, fromScale: request.from.scale, toScale: request.to.scale };
    const terms = request.side.kind === 'sell' ? priceSelling(request.side.fromAmount, input) : priceBuying(request.side.toAmount, input);
    this.settings.tradeLimits.check(request.from.code, request.to.code, terms.fromAmount);
    const now = this.clock.now();
    const quote = Quote.create({
      id: this.ids.next('quote'),
      organizationId: command.organizationId,
      accountId: command.accountId,
      fromAsset: request.from.code,
      toAsset: request.to.code,
      terms,
      pricing: { spreadBps, referrerShareBps, feeScale: request.from.scale },
      now,
    });
    // Everything is decided: the quote and the command's result reach the database in one statement.
    return this.unitOfWork.write(async () => {
      await this.quotes.insert(quote);
      return presentQuote(quote, now);
    });
  }
}
