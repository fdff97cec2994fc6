import type { HeadersObject, OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import type { ErrorCode } from '@pfs/contracts';
import { ON_BEHALF_OF_EXTENSION, type OnBehalfOfPolicy } from '../auth/on-behalf-of.decorator';
import { PUBLIC_EXTENSION } from '../auth/public.decorator';
import { codesByStatus } from '../errors/error-status.table';
import { IDEMPOTENT_METHODS, MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency.guard';
import { DEFAULT_REQUEST_ERROR_CODE, REQUEST_ERROR_CODE_EXTENSION, type RequestErrorCode } from '../validation/request-error-code.decorator';
import { ERROR_CODES_EXTENSION } from './api-errors.decorator';
import { ERROR_DOCS } from './error-catalog';
import { renderSpecListedCodes, SPEC_LISTED_CODES_EXTENSION, type SpecListedCodeNote } from './spec-listed-codes.decorator';
import {
  EVERY_RESPONSE_HEADERS,
  IDEMPOTENT_REPLAY_RESPONSE_HEADERS,
  RATE_LIMIT_RESPONSE_HEADERS,
  RETRY_AFTER_RESPONSE_HEADER,
} from './response-headers';

const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';
const EXAMPLE_REQUEST_ID = 'req_4f1c2b9e8d7a6b5c4d3e2f1a0b9c8d7e';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Codes every authenticated route can answer, whatever it does. */
const AUTHENTICATED_CODES: readonly ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'authentication_failed', 'rate_limited', 'internal_error'];
const IDEMPOTENCY_CODES: readonly ErrorCode[] = ['idempotency_key_in_use', 'idempotency_request_in_flight'];
const ON_BEHALF_OF_CODES: readonly ErrorCode[] = ['forbidden', 'organization_not_found'];

const SERVICE_UNAVAILABLE =
  '`internal_error`: a service behind the gateway has no running consumer or did not answer within the command timeout (default 5 s); the message names the service. Safe to retry.';

/**
 * What the HTTP layer answers before a request is routed, on any operation: the envelope with
 * `invalid_request` (spec §7 has no code of its own for these; api-decisions give each code one
 * status for what a route answers, and these are answered by no route).
 */
export const TRANSPORT_ERRORS: ReadonlyArray<{ status: number; example: string; description: string; message: string }> = [
  {
    status: 408,
    example: 'request_timeout',
    description:
      '`invalid_request`: the request headers did not arrive within the header timeout (default 10 s) or the whole request within the request timeout (default 15 s); the connection is closed.',
    message: 'The request was not received in time.',
  },
  {
    status: 431,
    example: 'headers_too_large',
    description: '`invalid_request`: the request line and headers exceed 16 KiB; the connection is closed.',
    message: 'The request headers are too large.',
  },
];

const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Recommended: a unique key per logical operation (a UUID v4), at most 255 characters. The first response (status and body) is kept for 24 h and ' +
    'returned again, with `Idempotent-Replayed: true`, for a retry with the same key, method, path and body. The same key with a different request is ' +
    '422 `idempotency_key_in_use`; while the first request is still running, 409 `idempotency_request_in_flight`. A 5xx or a request rejected as ' +
    'malformed is not kept, so a retry runs. Keys are scoped to the organization and the `Service-On-Behalf-Of` value. Without the header the request ' +
    'simply runs.',
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, example: '5f0c6a7e-2b1d-4c3a-9e8f-7d6c5b4a3f2e' },
};

/**
 * Documents the platform behaviours on every operation from what the routes declare, so the
 * document cannot drift from what the gateway does:
 * - authenticated (not @Public): bearer security, the authentication and `rate_limited`
 *   responses, the RateLimit headers, and the 503 of a service that did not answer;
 * - POST, PUT, PATCH: the `Idempotency-Key` header, the idempotency codes and replay headers;
 * - @OnBehalfOf: `forbidden` and `organization_not_found`; otherwise the header's refusal;
 * - @RequestErrorCode: which code a malformed request gets;
 * - @ApiErrors: the route's own codes;
 * - a request body is required only when its schema requires a field (see documentBodyPresence).
 * Every error response is rendered from the one error table, and every response carries X-Request-Id.
 */
export function documentPlatformBehaviours(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      documentOperation(operation, method);
      documentBodyPresence(operation, schemas);
    }
  }
  return document;
}

/**
 * The gateway reads a missing body as `{}` (RequestValidationPipe), so a body may be left out
 * exactly when `{}` satisfies its schema, i.e. the schema requires no field. The generator marks
 * every body required; this states what the server does, for validators and generated clients.
 */
function documentBodyPresence(operation: OperationObject, schemas: Record<string, SchemaObject | ReferenceObject>): void {
  const body = operation.requestBody;
  if (!body || '$ref' in body) return;
  const declared = body.content['application/json']?.schema;
  const schema = declared && '$ref' in declared ? schemas[declared.$ref.split('/').pop() ?? ''] : declared;
  if (!schema || '$ref' in schema) return;
  body.required = (schema.required?.length ?? 0) > 0;
  if (!body.required) body.description = [body.description, 'The body may be left out: a request without one is read as `{}`.'].filter(Boolean).join(' ');
}

function documentOperation(operation: OperationObject, method: (typeof HTTP_METHODS)[number]): void {
  const extensions = operation as unknown as Record<string, unknown>;
  const isPublic = extensions[PUBLIC_EXTENSION] === true;
  const routeCodes = (extensions[ERROR_CODES_EXTENSION] as ErrorCode[] | undefined) ?? [];
  const onBehalfOf = extensions[ON_BEHALF_OF_EXTENSION] as OnBehalfOfPolicy | undefined;
  const requestCode = (extensions[REQUEST_ERROR_CODE_EXTENSION] as RequestErrorCode | undefined) ?? DEFAULT_REQUEST_ERROR_CODE;
  const specNotes = extensions[SPEC_LISTED_CODES_EXTENSION] as Partial<Record<ErrorCode, SpecListedCodeNote>> | undefined;
  for (const key of [PUBLIC_EXTENSION, ERROR_CODES_EXTENSION, ON_BEHALF_OF_EXTENSION, REQUEST_ERROR_CODE_EXTENSION, SPEC_LISTED_CODES_EXTENSION]) {
    delete extensions[key];
  }

  for (const transport of TRANSPORT_ERRORS) operation.responses[String(transport.status)] = transportErrorResponse(transport);
  for (const response of Object.values(operation.responses) as ResponseObject[]) addHeaders(response, EVERY_RESPONSE_HEADERS);
  if (isPublic) return;

  const mutating = IDEMPOTENT_METHODS.has(method.toUpperCase());
  operation.security = [{ bearer: [] }];
  const codes = new Set<ErrorCode>([requestCode, ...AUTHENTICATED_CODES, ...routeCodes]);
  // The refusal of the header on routes that do not support it is always `invalid_request`.
  if (!onBehalfOf) codes.add('invalid_request');
  if (onBehalfOf) ON_BEHALF_OF_CODES.forEach((code) => codes.add(code));
  if (mutating) IDEMPOTENCY_CODES.forEach((code) => codes.add(code));

  for (const [status, statusCodes] of codesByStatus([...codes])) {
    operation.responses[String(status)] = errorResponse(statusCodes, requestCode);
  }
  operation.responses['503'] = serviceUnavailableResponse(operation.responses['503'] as ResponseObject | undefined);

  for (const [status, response] of Object.entries(operation.responses) as Array<[string, ResponseObject]>) {
    // 401 is answered before the key is known, so before the rate limit; 408 and 431 before routing.
    if (status === '401' || TRANSPORT_ERRORS.some((transport) => String(transport.status) === status)) continue;
    addHeaders(response, RATE_LIMIT_RESPONSE_HEADERS);
    if (status === '429') addHeaders(response, RETRY_AFTER_RESPONSE_HEADER);
    // Stored responses (everything but 5xx) can be replays.
    if (mutating && Number(status) < 500 && status !== '429') addHeaders(response, IDEMPOTENT_REPLAY_RESPONSE_HEADERS);
  }

  const notes: string[] = [];
  if (!onBehalfOf) notes.push('`Service-On-Behalf-Of` is not supported on this endpoint: a request carrying it is answered 400 `invalid_request`.');
  if (mutating) {
    operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
    notes.push('Send an `Idempotency-Key` to retry safely: see the header.');
  }
  if (requestCode !== 'invalid_request') notes.push(`A malformed request is answered 400 \`${requestCode}\`.`);
  if (specNotes) notes.push(renderSpecListedCodes(specNotes));
  operation.description = [operation.description, ...notes].filter(Boolean).join('\n\n');
}

function errorResponse(codes: ErrorCode[], requestCode: RequestErrorCode): ResponseObject {
  const describe = (code: ErrorCode) =>
    code === 'invalid_request' && requestCode !== 'invalid_request'
      ? '`invalid_request`: the request carries `Service-On-Behalf-Of`, which this endpoint does not support.'
      : `\`${code}\`: ${ERROR_DOCS[code].meaning}.`;
  return {
    description: codes.map(describe).join(' '),
    headers: { ...EVERY_RESPONSE_HEADERS },
    content: {
      'application/json': {
        schema: { $ref: ERROR_ENVELOPE_REF },
        examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: envelope(code, ERROR_DOCS[code].example) }])),
      },
    },
  };
}

/** The 503 of a service that did not answer, merged with any 503 code the route declares. */
function serviceUnavailableResponse(declared: ResponseObject | undefined): ResponseObject {
  const content = declared?.content?.['application/json'];
  return {
    description: [declared?.description, SERVICE_UNAVAILABLE].filter(Boolean).join(' '),
    headers: { ...EVERY_RESPONSE_HEADERS },
    content: {
      'application/json': {
        schema: { $ref: ERROR_ENVELOPE_REF },
        examples: {
          ...(content?.examples ?? {}),
          service_unavailable: {
            summary: 'internal_error (service unavailable)',
            value: envelope('internal_error', 'The ledger service is unavailable; try again shortly.'),
          },
        },
      },
    },
  };
}

function transportErrorResponse(transport: (typeof TRANSPORT_ERRORS)[number]): ResponseObject {
  return {
    description: transport.description,
    headers: { ...EVERY_RESPONSE_HEADERS },
    content: {
      'application/json': {
        schema: { $ref: ERROR_ENVELOPE_REF },
        examples: { [transport.example]: { summary: `invalid_request (${transport.status})`, value: envelope('invalid_request', transport.message) } },
      },
    },
  };
}

function addHeaders(response: ResponseObject, headers: HeadersObject): void {
  response.headers = { ...(response.headers ?? {}), ...headers };
}

function envelope(code: ErrorCode, message: string): { error: { code: ErrorCode; message: string; requestId: string } } {
  return { error: { code, message, requestId: EXAMPLE_REQUEST_ID } };
}
