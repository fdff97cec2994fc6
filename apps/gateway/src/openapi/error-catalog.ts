import { ERROR_CODES, type ErrorCode } from '@pfs/contracts';
import { ERROR_STATUS } from '../errors/error-status.table';

export interface ErrorDoc {
  /** When the code is answered. */
  meaning: string;
  /** A message of that code as a client would see it. */
  example: string;
}

/**
 * Every code of spec §7 with what it means, for the OpenAPI document. Typed over every
 * ErrorCode, so a code added to the catalog without its documentation fails to compile.
 */
export const ERROR_DOCS: Readonly<Record<ErrorCode, ErrorDoc>> = {
  invalid_request: {
    meaning:
      'the request is malformed (unreadable JSON, a body that is not JSON in UTF-8, a body over 1 MiB or nested deeper than 32 levels, an unknown or invalid field, query parameter or header), or carries `Service-On-Behalf-Of` where it is not supported; the message names the field. Also what the HTTP layer refuses before any endpoint: 400 for a request that is not valid HTTP/1.1, 408 for one not received in time, 431 for headers over 16 KiB',
    example: 'limit: must be an integer between 1 and 100',
  },
  validation_error: {
    meaning: 'the request is malformed, on the endpoints that answer malformed requests with this code; the message names the field',
    example: 'subOrgTierKey: must be a string or null',
  },
  missing_api_key: {
    meaning: 'no Authorization header was sent',
    example: 'No API key was provided. Send it as "Authorization: Bearer <api_key>".',
  },
  invalid_api_key: {
    meaning: 'the Authorization header is not `Bearer <api_key>` with a well-formed key of this environment',
    example: 'The Authorization header must be "Bearer <api_key>" with a sandbox key (sk_test_…).',
  },
  authentication_failed: {
    meaning: 'the key is well-formed but unknown or revoked (a revocation takes effect within 5 s)',
    example: 'The API key is unknown or has been revoked.',
  },
  forbidden: {
    meaning:
      'the organization is not allowed or not enabled for this action: acting on behalf of an organization it neither created nor holds an active LOA from (or, for the tier, did not create), issuing referral invites while the operator has suspended its referrals, signing up through an invite with another email',
    example: 'Acting on behalf of org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d requires having created it or holding an active authorization (LOA) from it.',
  },
  service_not_enabled: {
    meaning:
      'the organization is not enabled for this service, or the service is not available in this environment: in production, payouts on a rail ' +
      'with no payment rail connected yet (refused before anything is held)',
    example: 'Fiat payouts are not enabled in this environment yet: no payment rail is connected. Nothing was held.',
  },
  servicenet_not_enabled: {
    meaning:
      'internal transfers (servicenet) are not enabled for the organization (enable them with POST /v1/servicenet/enable), or, on a transfer, ' +
      'the receiving organization has disabled them since the beneficiary was created',
    example: 'Servicenet is not enabled for this organization.',
  },
  verification_required: {
    meaning: 'the organization must be verification-approved first (e.g. to use the faucet)',
    example: 'The organization must be verification-approved to use the faucet.',
  },
  sub_org_tier_not_available: {
    meaning: 'the pricing tier cannot be assigned to this organization',
    example: 'The tier vip is not available to this organization.',
  },
  not_found: {
    meaning: 'the route or the resource does not exist (also every sandbox route in production)',
    example: 'Unrecognized request URL. See /docs for the available endpoints.',
  },
  organization_not_found: {
    meaning: 'no such organization, e.g. the one named in `Service-On-Behalf-Of`',
    example: 'No organization org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d was found.',
  },
  account_not_found: {
    meaning: 'no account with this id belongs to the organization (another organization’s account answers the same)',
    example: 'No account acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c was found.',
  },
  quote_not_found: { meaning: 'no quote with this id belongs to the organization', example: 'No quote quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c was found.' },
  beneficiary_not_found: {
    meaning: 'no beneficiary with this id belongs to the organization',
    example: 'No beneficiary bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f was found.',
  },
  transaction_not_found: {
    meaning: 'no transaction with this id belongs to the organization',
    example: 'No transaction txn_7d4b1e3a5c7f9d2b4e6a8c0f1d3b5e7a was found.',
  },
  funding_method_not_found: {
    meaning: 'no funding method with this id belongs to the organization',
    example: 'No funding method fm_1c8e3a5d7f9b0c2e4a6d8f1b3c5e7a9d was found.',
  },
  authorization_not_found: {
    meaning: 'no authorization (LOA) with this id involves the organization',
    example: 'No authorization loa_6f0a2c4e8b1d3f5a7c9e0b2d4f6a8c1e was found.',
  },
  servicenet_handle_not_found: { meaning: 'no organization holds this servicenet handle, or the organization holding it has servicenet disabled', example: 'No servicenet handle acme was found.' },
  sub_org_tier_not_found: { meaning: 'no pricing tier has this key', example: 'No sub-org tier gold was found.' },
  idempotency_request_in_flight: {
    meaning: 'an earlier request with the same `Idempotency-Key` is still being processed; retry once it has completed',
    example: 'A request with this Idempotency-Key is still being processed. Retry once it has completed.',
  },
  quote_already_used: { meaning: 'the quote has already been executed', example: 'Quote quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c has already been executed.' },
  quote_expired: { meaning: 'the quote expired (5 minutes after creation) before it was executed', example: 'Quote quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c expired at 2026-11-21T04:49:09.123Z.' },
  beneficiary_already_archived: {
    meaning: 'the beneficiary is archived: archiving it again, changing, blocking or unblocking it is refused until it is unarchived',
    example: 'Beneficiary bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f is archived.',
  },
  beneficiary_not_archived: {
    meaning: 'only an archived beneficiary can be unarchived',
    example: 'Beneficiary bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f is ACTIVE, not ARCHIVED.',
  },
  beneficiary_blocked: {
    meaning: 'the beneficiary is blocked: it cannot be paid, changed, archived or blocked again until it is unblocked',
    example: 'Beneficiary bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f is blocked.',
  },
  servicenet_handle_taken: { meaning: 'another organization has already claimed this servicenet handle', example: 'The servicenet handle acme is taken.' },
  referral_invite_already_accepted: {
    meaning: 'the referral invite for this email has already been accepted',
    example: 'The referral invite for ada@example.com has already been accepted.',
  },
  idempotency_key_in_use: {
    meaning: 'the `Idempotency-Key` was already used for a different request (method, path or body); use a new key for a new request',
    example: 'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
  },
  insufficient_funds: { meaning: 'the account’s available balance is too low', example: 'The available USDC balance of acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c is too low.' },
  trade_size_out_of_bounds: {
    meaning: 'the trade size (`fromAmount`, given or solved from `toAmount`) is outside the pair’s configured minimum and maximum; the message names both',
    example: 'fromAmount: 0.5 USDC is outside the trade size for USDC → EUR: from 1 to 1000000 USDC.',
  },
  swap_direction_not_allowed: { meaning: 'the two assets are the same or the pair has no rate', example: 'BTC → BTC: the same asset on both sides is not an exchange' },
  share_token_invalid: { meaning: 'the share token is invalid or expired', example: 'The share token is invalid or has expired.' },
  verification_import_unsupported: {
    meaning: 'the verification cannot be imported from this source',
    example: 'Importing a verification from this provider is not supported.',
  },
  rate_limited: {
    meaning:
      'the API key exceeded its request budget (1000 requests per 60 s window by default); `Retry-After` and the message give the seconds to wait',
    example: 'Rate limit exceeded: 1000 requests per minute per API key. Retry in 23 seconds.',
  },
  internal_error: {
    meaning: 'unexpected server error; the message never carries internals',
    example: 'An unexpected error occurred. Quote the requestId if you contact support.',
  },
  chain_send_failed: {
    meaning:
      'the transfer could not be sent on the chain, and nothing was held; in the sandbox, a crypto payout to the chain’s zero or burn address answers it (see POST /v1/payouts/crypto)',
    example: 'The transfer could not be sent on ETHEREUM_SEPOLIA.',
  },
  webhooks_unavailable: { meaning: 'webhook management is temporarily unavailable; retry later', example: 'Webhook management is temporarily unavailable.' },
};

/** A Markdown table of every code with its status, for the document's description. */
export function errorCatalogTable(): string {
  const rows = [...ERROR_CODES]
    .sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b))
    .map((code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_DOCS[code].meaning} |`);
  return ['| Status | Code | Meaning |', '|---|---|---|', ...rows].join('\n');
}
