import { DomainError } from '@pfs/contracts';

/** Same asset on both sides, or a pair the rate source has no rate for (api-decisions §6). */
export class SwapDirectionNotAllowedError extends DomainError {
  constructor(fromAsset: string, toAsset: string, why: string) {
    super('swap_direction_not_allowed', `${fromAsset} → ${toAsset}: ${why}`);
  }
}

/** Outside the pair's configured trade size; the message names the bounds. */
export class TradeSizeOutOfBoundsError extends DomainError {
  constructor(message: string) {
    super('trade_size_out_of_bounds', message);
  }
}

/** A malformed quote request the domain catches (amounts, their scale, both or neither given). */
export class InvalidQuoteRequestError extends DomainError {
  constructor(field: string, problem: string) {
    super('invalid_request', `${field}: ${problem}`);
  }
}

/** Also another organization's quote: it must look as if it did not exist. */
export class QuoteNotFoundError extends DomainError {
  constructor(quoteId: string) {
    super('quote_not_found', `No quote ${quoteId} was found.`);
  }
}

export class QuoteExpiredError extends DomainError {
  constructor(quoteId: string, expiresAt: Date) {
    super('quote_expired', `Quote ${quoteId} expired at ${expiresAt.toISOString()}; request a new quote.`);
  }
}

/** Executed before, or failed: a quote is used at most once. */
export class QuoteAlreadyUsedError extends DomainError {
  constructor(quoteId: string, status: string) {
    super('quote_already_used', `Quote ${quoteId} is ${status}: a quote can be executed once.`);
  }
}

/** The account is not one of the caller's: the same answer whether it exists elsewhere or not at all. */
export class AccountNotFoundError extends DomainError {
  constructor(accountId: string) {
    super('account_not_found', `No account ${accountId} was found.`);
  }
}

/**
 * The ledger refused the trade because the quote's account can no longer trade (suspended or
 * closed since quoting): the quote FAILS with this message as its reason.
 */
export class AccountCannotTradeError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

/**
 * The quote's stored status was no longer the one a change was decided from (a concurrent
 * execute, or the reconciler, changed it meanwhile): nothing was written; never an answer of its
 * own, the caller decides again from the stored quote.
 */
export class QuoteChangedError extends Error {
  constructor(readonly quoteId: string) {
    super(`quote ${quoteId} changed meanwhile`);
  }
}
