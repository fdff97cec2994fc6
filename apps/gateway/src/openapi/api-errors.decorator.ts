import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { ErrorCode } from '@pfs/contracts';
import { codesByStatus } from '../errors/error-status.table';
import { ErrorEnvelopeDto } from './error-envelope.dto';
import { REQUEST_ID_RESPONSE_HEADER } from './response-headers';

/** What each code means where the gateway itself produces it; others get a generic line. */
const CODE_MEANINGS: Partial<Record<ErrorCode, string>> = {
  missing_api_key: 'no Authorization header was sent',
  invalid_api_key: 'the Authorization header is not `Bearer <api_key>` with a well-formed key of this environment',
  authentication_failed: 'the key is well-formed but unknown or revoked',
  invalid_request:
    'a query parameter is invalid or unknown, or the request carries `Service-On-Behalf-Of` where it is not supported; the message names the field',
  not_found: 'no such route',
  account_not_found: 'no account with this id belongs to the caller (another organization’s account answers the same)',
  internal_error: 'unexpected server error; the message never carries internals',
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
      description: statusCodes.map((code) => `\`${code}\`: ${CODE_MEANINGS[code] ?? 'see the message'}.`).join(' '),
      type: ErrorEnvelopeDto,
      headers: REQUEST_ID_RESPONSE_HEADER,
      examples: Object.fromEntries(
        statusCodes.map((code) => [code, { summary: code, value: exampleEnvelope(code, CODE_MEANINGS[code] ?? code) }]),
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
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return { error: { code, message: sentence.endsWith('.') ? sentence : `${sentence}.`, requestId: 'req_4f1c2b9e8d7a6b5c4d3e2f1a0b9c8d7e' } };
}
