/**
 * The error catalog of spec §7. Codes are stable strings: they cross queues as
 * `{code, message}` and reach partners in the error envelope. The HTTP status of each code
 * lives in one table in the gateway (`error-status.table.ts`).
 */
export const ERROR_CODES = [
  'missing_api_key',
  'authentication_failed',
  'invalid_api_key',
  'forbidden',
  'swap_direction_not_allowed',
  'sub_org_tier_not_available',
  'service_not_enabled',
  'not_found',
  'organization_not_found',
  'account_not_found',
  'quote_not_found',
  'beneficiary_not_found',
  'transaction_not_found',
  'funding_method_not_found',
  'authorization_not_found',
  'servicenet_handle_not_found',
  'sub_org_tier_not_found',
  'quote_expired',
  'quote_already_used',
  'beneficiary_already_archived',
  'beneficiary_not_archived',
  'beneficiary_blocked',
  'servicenet_not_enabled',
  'servicenet_handle_taken',
  'chain_send_failed',
  'idempotency_key_in_use',
  'idempotency_request_in_flight',
  'referral_invite_already_accepted',
  'invalid_request',
  'insufficient_funds',
  'trade_size_out_of_bounds',
  'validation_error',
  'share_token_invalid',
  'verification_import_unsupported',
  'verification_required',
  'rate_limited',
  'webhooks_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODE_SET.has(value);
}

/** The wire shape of an error, on a queue reply and (plus requestId) in the HTTP envelope. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
}

/**
 * Base of every domain error. Plain TypeScript: domains may extend it without importing a
 * framework. Only `{code, message}` ever leaves the process.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toPayload(): ErrorPayload {
    return { code: this.code, message: this.message };
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
