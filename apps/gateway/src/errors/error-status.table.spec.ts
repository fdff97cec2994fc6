import { ERROR_CODES, type ErrorCode } from '@pfs/contracts';
import { codesByStatus, ERROR_STATUS } from './error-status.table';

// api-decisions §2, transcribed independently of the table under test.
const DECIDED: Record<number, ErrorCode[]> = {
  400: ['invalid_request', 'validation_error'],
  401: ['missing_api_key', 'invalid_api_key', 'authentication_failed'],
  403: ['forbidden', 'service_not_enabled', 'servicenet_not_enabled', 'verification_required', 'sub_org_tier_not_available'],
  404: [
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
  ],
  409: [
    'idempotency_request_in_flight',
    'quote_already_used',
    'quote_expired',
    'beneficiary_already_archived',
    'beneficiary_not_archived',
    'beneficiary_blocked',
    'servicenet_handle_taken',
    'referral_invite_already_accepted',
  ],
  422: [
    'idempotency_key_in_use',
    'insufficient_funds',
    'trade_size_out_of_bounds',
    'swap_direction_not_allowed',
    'share_token_invalid',
    'verification_import_unsupported',
  ],
  429: ['rate_limited'],
  500: ['internal_error'],
  502: ['chain_send_failed'],
  503: ['webhooks_unavailable'],
};

describe('error status table', () => {
  it('has exactly one status for every error code of the catalog', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(Number.isInteger(ERROR_STATUS[code])).toBe(true);
  });

  it.each(Object.entries(DECIDED).flatMap(([status, codes]) => codes.map((code) => [code, Number(status)] as const)))(
    '%s answers %i',
    (code, status) => {
      expect(ERROR_STATUS[code]).toBe(status);
    },
  );

  it('covers every code in the decisions table, and nothing else', () => {
    expect(Object.values(DECIDED).flat().sort()).toEqual([...ERROR_CODES].sort());
  });

  it('maps every *_not_found code to 404', () => {
    for (const code of ERROR_CODES.filter((candidate) => candidate.endsWith('_not_found'))) {
      expect(ERROR_STATUS[code]).toBe(404);
    }
  });

  it('groups codes by status for the OpenAPI document, statuses ascending, without repeats', () => {
    const grouped = codesByStatus(['account_not_found', 'missing_api_key', 'invalid_request', 'not_found', 'missing_api_key']);
    expect([...grouped.entries()]).toEqual([
      [400, ['invalid_request']],
      [401, ['missing_api_key']],
      [404, ['account_not_found', 'not_found']],
    ]);
  });
});
