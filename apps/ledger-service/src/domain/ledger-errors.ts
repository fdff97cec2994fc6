import { DomainError } from '@pfs/contracts';

/** Also what another organization's account answers: it must look as if it did not exist. */
export class AccountNotFoundError extends DomainError {
  constructor(accountId: string) {
    super('account_not_found', `No account ${accountId} was found.`);
  }
}

// Assets and funding methods.

/** An asset code outside the catalog (api-decisions §4): 404 `not_found`. */
export class UnknownAssetError extends DomainError {
  constructor(asset: string) {
    super('not_found', `No asset ${asset} was found.`);
  }
}

/** Also what a method on another organization's account answers. */
export class FundingMethodNotFoundError extends DomainError {
  constructor(fundingMethodId: string) {
    super('funding_method_not_found', `No funding method ${fundingMethodId} was found.`);
  }
}

/**
 * The organization's primary account is opened before the organization's id is given out (and on
 * `organization.created`, should that fail), so this answers only an id the ledger never heard of.
 */
export class PrimaryAccountNotFoundError extends DomainError {
  constructor(organizationId: string) {
    super('account_not_found', `Organization ${organizationId} has no primary account yet.`);
  }
}

// Transactions, the faucet and the journal.

/** Also what another organization's transaction answers. */
export class TransactionNotFoundError extends DomainError {
  constructor(transactionId: string) {
    super('transaction_not_found', `No transaction ${transactionId} was found.`);
  }
}

export class IllegalTransitionError extends DomainError {
  constructor(transactionId: string, action: string, status: string, allowed: readonly string[]) {
    super(
      'invalid_request',
      `Transaction ${transactionId} is ${status}: it cannot be ${action === 'lock' ? 'locked' : `${action}d`}${
        allowed.length ? ` (from ${status} it can be: ${allowed.join(', ')})` : ` (${status} is final)`
      }.`,
    );
  }
}

/**
 * The quote already has a transaction of this type, posted by another command meanwhile (a quote
 * is traded at most once): never an answer of its own, the caller answers the posted trade.
 */
export class QuoteAlreadyTradedError extends Error {
  constructor(readonly quoteId: string) {
    super(`quote ${quoteId} was traded by another command meanwhile`);
  }
}

/** A debit the balance cannot cover: customer balances never go below zero. */
export class InsufficientFundsError extends DomainError {
  constructor(accountId: string, asset: string) {
    super('insufficient_funds', `Account ${accountId} does not hold enough ${asset} for this.`);
  }
}

/**
 * An amount, or the balance it would leave, that the books cannot hold (numeric(38, 18): 20 digits
 * before the point). The gateway bounds amounts well below this; a request that still gets here
 * is refused, never retried as a server error.
 */
export class AmountTooLargeError extends DomainError {
  constructor(what: string) {
    super('invalid_request', `amount: ${what} would be more than the ledger holds (at most 20 digits before the decimal point).`);
  }
}

export class VerificationRequiredError extends DomainError {
  constructor(organizationId: string) {
    super('verification_required', `Organization ${organizationId} must be verification-approved (status APPROVED) for this.`);
  }
}

/** A request the ledger refuses as it stands; the message says what to change. */
export class LedgerRequestError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/**
 * A sandbox-only operation outside the sandbox (the faucet, spec 4.6 rule 1; the sandbox moves of
 * a transaction): as if it did not exist. The ledger refuses these itself, whatever routes the
 * gateway serves.
 */
export class SandboxOnlyError extends DomainError {
  constructor(operation: string) {
    super('not_found', `No such operation: ${operation} exists only in the sandbox.`);
  }
}

/**
 * A payout on a rail whose adapter cannot move money in this environment (the sandbox rails in
 * production): refused before anything is asked or held, since nothing could ever move it.
 */
export class PayoutRailUnavailableError extends DomainError {
  constructor(rail: string) {
    super('service_not_enabled', `${rail === 'FIAT' ? 'Fiat' : 'Crypto'} payouts are not enabled in this environment yet: no payment rail is connected. Nothing was held.`);
  }
}

// Trades.

/** The account may hold but not trade: the quote service marks the quote FAILED on this code. */
export class AccountNotActiveError extends DomainError {
  constructor(accountId: string, status: string) {
    super('forbidden', `Account ${accountId} is ${status}: only an ACTIVE account can trade.`);
  }
}

// Payouts.

/** A BLOCKED beneficiary cannot be paid until unblocked (api-decisions §5). */
export class BeneficiaryBlockedError extends DomainError {
  constructor(beneficiaryId: string) {
    super('beneficiary_blocked', `Beneficiary ${beneficiaryId} is BLOCKED: it cannot be paid until it is unblocked.`);
  }
}

/** The chain (or the sandbox's simulation of it) refused the send; nothing is held. */
export class ChainSendFailedError extends DomainError {
  constructor(chainName: string, why: string) {
    super('chain_send_failed', `The transfer could not be sent on ${chainName}: ${why}`);
  }
}

/**
 * Servicenet is off for the sender, or for the receiving organization (it disabled servicenet
 * since the beneficiary was created): no internal transfer either way.
 */
export class ServicenetNotEnabledError extends DomainError {
  constructor(message: string) {
    super('servicenet_not_enabled', message);
  }
}
