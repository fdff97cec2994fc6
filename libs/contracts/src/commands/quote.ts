import { z } from 'zod';
import { QUOTE_STATUSES, type PageView, type PricingView, type QuoteView, type TransactionView } from '../views';
import { mutation, pageRequestSchema, query } from './command-definition';
import { systemCommands } from './system';

/**
 * The quote service's queue (spec 2.6, 4.7; api-decisions §6). Each command's use case is
 * `apps/quote-service/src/application/use-cases/<verb>-<resource>/`. Another organization's
 * quote answers `quote_not_found`, as if it did not exist.
 */
export const quoteCommands = {
  ...systemCommands,
  /** POST /v1/quotes: exactly one of `fromAmount` and `toAmount` (checked here too, not only at the gateway). */
  'quotes.create': mutation(
    z.object({
      organizationId: z.string(),
      accountId: z.string(),
      fromAsset: z.string(),
      toAsset: z.string(),
      fromAmount: z.string().nullable(),
      toAmount: z.string().nullable(),
    }),
    // Every quote is stored with its claim.
    { replay: 'on-claim' },
  ).returns<QuoteView>(),
  'quotes.get': query(z.object({ organizationId: z.string(), quoteId: z.string() })).returns<QuoteView>(),
  /** GET /v1/quotes: newest first; a PENDING quote past its expiry is listed EXPIRED. */
  'quotes.list': query(
    z.object({ organizationId: z.string(), page: pageRequestSchema, filters: z.object({ status: z.enum(QUOTE_STATUSES).optional() }) }),
  ).returns<PageView<QuoteView>>(),
  /**
   * POST /v1/quotes/{quoteId}/execute: the TRADE transaction, posted by the ledger under the
   * quote id as its operation id, so a retry after any failure between the two services ends
   * with the same one trade.
   */
  'quotes.execute': mutation(
    z.object({ organizationId: z.string(), quoteId: z.string() }),
    // The trade is recorded with its claim; a repeat finds the quote used, and its refusal turns to the log.
    { replay: 'on-claim' },
  ).returns<TransactionView>(),
  /** The spread and referrer share quotes are priced by now (GET /v1/fees shows them): one source for both. */
  'pricing.get': query(z.object({ organizationId: z.string() })).returns<PricingView>(),
} as const;
