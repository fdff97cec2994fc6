import { commandHandlers, PingUseCase } from '@pfs/messaging';
import { CreateQuoteUseCase } from '../../application/use-cases/create-quote/create-quote.use-case';
import { ExecuteQuoteUseCase } from '../../application/use-cases/execute-quote/execute-quote.use-case';
import { GetPricingUseCase } from '../../application/use-cases/get-pricing/get-pricing.use-case';
import { GetQuoteUseCase } from '../../application/use-cases/get-quote/get-quote.use-case';
import { ListQuotesUseCase } from '../../application/use-cases/list-quotes/list-quotes.use-case';

/**
 * The quote service's queue: one line per command of `libs/contracts/src/commands/quote.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const QUOTE_COMMAND_HANDLERS = commandHandlers('quote', {
  'system.ping': PingUseCase,
  'quotes.create': CreateQuoteUseCase,
  'quotes.get': GetQuoteUseCase,
  'quotes.list': ListQuotesUseCase,
  'quotes.execute': ExecuteQuoteUseCase,
  'pricing.get': GetPricingUseCase,
});
