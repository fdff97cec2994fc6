import type { ErrorCode } from '@pfs/contracts';

/**
 * The one code → HTTP status table (api-decisions §2). Typed over every ErrorCode, so a code
 * added to the catalog without a status here fails to compile.
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  validation_error: 400,

  missing_api_key: 401,
  invalid_api_key: 401,
  authentication_failed: 401,

  forbidden: 403,
  service_not_enabled: 403,
  servicenet_not_enabled: 403,
  verification_required: 403,
  sub_org_tier_not_available: 403,

  not_found: 404,
  organization_not_found: 404,
  account_not_found: 404,
  quote_not_found: 404,
  beneficiary_not_found: 404,
  transaction_not_found: 404,
  funding_method_not_found: 404,
  authorization_not_found: 404,
  servicenet_handle_not_found: 404,
  sub_org_tier_not_found: 404,

  idempotency_request_in_flight: 409,
  quote_already_used: 409,
  quote_expired: 409,
  beneficiary_already_archived: 409,
  beneficiary_not_archived: 409,
  beneficiary_blocked: 409,
  servicenet_handle_taken: 409,
  referral_invite_already_accepted: 409,

  idempotency_key_in_use: 422,
  insufficient_funds: 422,
  trade_size_out_of_bounds: 422,
  swap_direction_not_allowed: 422,
  share_token_invalid: 422,
  verification_import_unsupported: 422,

  rate_limited: 429,

  internal_error: 500,

  chain_send_failed: 502,

  webhooks_unavailable: 503,
};

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/** The codes an endpoint can answer with a given status, for the OpenAPI document. */
export function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}
