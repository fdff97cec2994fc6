import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { ErrorCode } from '@pfs/contracts';
import { codesByStatus } from '../errors/error-status.table';
import { ErrorEnvelopeDto } from './error-envelope.dto';
import { REQUEST_ID_RESPONSE_HEADER } from './response-headers';

/** What each code means where the gateway itself produces it, and a message it sends. */
const CODE_DOCS: Partial<Record<ErrorCode, { meaning: string; example: string }>> = {
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
  invalid_request: {
    meaning:
      'a query parameter is invalid or unknown, or the request carries `Service-On-Behalf-Of` where it is not supported; the message names the field',
    example: 'limit: must be an integer between 1 and 100',
  },
  account_not_found: {
    meaning: 'no account with this id belongs to the caller (another organization’s account answers the same)',
    example: 'No account acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c was found.',
  },
  internal_error: {
    meaning: 'unexpected server error; the message never carries internals',
    example: 'An unexpected error occurred. Quote the requestId if you contact support.',
  },
};

/** Codes every authenticated route can answer, whatever it does. */
const AUTHENTICATED_ROUTE_CODES: readonly ErrorCode[] = [
  'invalid_request',
  'missing_api_key',
  'invalid_api_key',
  'authentication_failed',
  'internal_error',
];

/**
 * Documents the error responses of an authenticated route: the codes given plus those every
 * authenticated route can produce, grouped by the status the one error table assigns them,
 * and the 503 of a service that did not answer in time.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const all = [...new Set<ErrorCode>([...AUTHENTICATED_ROUTE_CODES, ...codes])];
  const responses = [...codesByStatus(all)].map(([status, statusCodes]) =>
    ApiResponse({
      status,
      description: statusCodes.map((code) => `\`${code}\`: ${CODE_DOCS[code]?.meaning ?? 'see the message'}.`).join(' '),
      type: ErrorEnvelopeDto,
      headers: REQUEST_ID_RESPONSE_HEADER,
      examples: Object.fromEntries(
        statusCodes.map((code) => [code, { summary: code, value: exampleEnvelope(code, CODE_DOCS[code]?.example ?? code) }]),
      ),
    }),
  );
  responses.push(
    ApiResponse({
      status: 503,
      description:
        '`internal_error`: a service behind the gateway has no running consumer or did not answer within the command timeout (default 5 s); the message names the service. Safe to retry.',
      type: ErrorEnvelopeDto,
      headers: REQUEST_ID_RESPONSE_HEADER,
      example: exampleEnvelope('internal_error', 'The ledger service is unavailable; try again shortly.'),
    }),
  );
  return applyDecorators(...responses);
}

function exampleEnvelope(code: ErrorCode, message: string): { error: { code: ErrorCode; message: string; requestId: string } } {
  return { error: { code, message, requestId: 'req_4f1c2b9e8d7a6b5c4d3e2f1a0b9c8d7e' } };
}
