import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { GatewayConfig } from '../gateway.config';
import { MAX_JSON_DEPTH } from '../http/json-body.parser';
import { AMOUNT_BOUND } from '../validation/is-amount.decorator';
import { errorCatalogTable } from './error-catalog';
import { ErrorEnvelopeDto } from './error-envelope.dto';
import { toOpenApi31 } from './openapi-31';
import { documentPlatformBehaviours } from './platform-behaviours';

export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

const seconds = (ms: number): string => String(Math.round(ms / 100) / 10);

/** What each deployment is; every sandbox-only operation's summary starts with "Sandbox:". */
const ENVIRONMENTS: Record<GatewayConfig['serviceEnv'], string> = {
  sandbox:
    'This deployment is the **sandbox**: keys start with `sk_test_` and its money is test money. The operations whose summary starts with "Sandbox:" ' +
    'stand in for what happens outside the platform (a deposit arriving, a verification decision, a payout moving on its rail, a ' +
    'compliance block); they exist only here, and answer 404 `not_found` in production like any unknown path. Everything else behaves as in production.',
  production:
    'This deployment is **production**: keys start with `sk_live_` and move real money. The sandbox’s simulation operations do not exist here; their paths ' +
    'answer 404 `not_found` like any unknown path.',
};

/**
 * The document's introduction: what the API is for, then what every operation shares
 * (conventions, limits, idempotency, pagination, environments, every error code). It names no
 * route or feature: the tags describe what exists, so adding a route never makes it stale.
 */
function describeApi(config: GatewayConfig): string {
  const limit = config.rateLimitPerWindow;
  const window = config.rateLimitWindowSeconds;
  const retentionHours = Math.round(config.idempotencyTtlSeconds / 3600);
  return [
    'The API through which a partner organization holds and moves money on the platform: its accounts and their balances in fiat and crypto assets, ' +
      'for itself and for the client organizations it creates.',
    '',
    'Operations are grouped by tag; each tag’s description says what its resources are, and each operation documents its own rules, answers and errors. ' +
      'This introduction covers what every operation shares: authentication, conventions, rate limits, idempotency, acting for a client, pagination, ' +
      'the sandbox, and the error codes.',
    '',
    '## Conventions',
    '- Authenticate every `/v1` call with `Authorization: Bearer <api_key>` (`sk_test_…` in the sandbox, `sk_live_…` in production). The scheme name is matched case-insensitively.',
    '- Every response carries `X-Request-Id: req_<32 hex>`; an error body repeats it as `requestId`. Quote it when contacting support.',
    '- Errors are `{"error": {"code", "message", "requestId"}}`; `code` is one of the `ErrorCode` values, and each code always has the same HTTP status (table below).',
    '- A service that does not answer in time gives 503 with code `internal_error` and a message naming the service; the request can be retried.',
    `- Amounts are decimal strings in major units (\`"10.50"\`), greater than zero, with ${AMOUNT_BOUND} and at most the asset’s \`scale\` decimals; JSON numbers, signs and exponents are rejected. Timestamps are ISO 8601 UTC with milliseconds.`,
    `- Request bodies are JSON objects of at most ${Math.floor(config.bodyLimitBytes / 1024)} KiB. Unknown body fields and query parameters are rejected, so a misspelt one is never silently ignored; validation messages name the field (\`fromAmount: must be …\`). Malformed requests are 400 \`invalid_request\`, except on the endpoints documented to answer \`validation_error\`. A body whose fields are all optional may be left out altogether, which is the same as \`{}\`; the document marks such a body as not required.`,
    `- Request bodies are \`application/json\` in UTF-8 and nothing else: another Content-Type (form-encoded, text, multipart), another charset, a \`Content-Encoding\`, bytes that are not UTF-8, a lone UTF-16 surrogate (\`\\ud800\`) or U+0000 in a string, or objects and arrays nested deeper than ${MAX_JSON_DEPTH} levels are malformed (400, naming the field where there is one). Every body field and query parameter name is data: \`toString\`, \`constructor\` or \`__proto__\` are unknown like any other.`,
    `- What the HTTP layer refuses before a request reaches any endpoint is answered in the same envelope with \`invalid_request\` and the connection is closed: a request that is not valid HTTP/1.1 (request line, headers, \`Content-Length\` with \`Transfer-Encoding\`, chunked encoding) is 400; headers over 16 KiB are 431; headers not received within ${seconds(config.headersTimeoutMs)} s, or the whole request within ${seconds(config.requestTimeoutMs)} s, are 408. An idle keep-alive connection is closed after ${seconds(config.keepAliveTimeoutMs)} s.`,
    '- Send exactly one `Authorization` header; two are 401 `invalid_api_key`, whichever holds the valid key.',
    '- Every response carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.',
    '',
    '## Rate limits',
    `Each API key may make ${limit} requests per ${window}-second window, shared by every gateway replica. The window starts with the key’s first request after the previous window ended (a fixed window, not a sliding one), and the whole budget returns when it ends. ` +
      `Every authenticated response carries \`RateLimit-Policy: "default";q=${limit};w=${window}\` and \`RateLimit: "default";r=<remaining>;t=<seconds until the window resets>\`. ` +
      'Over the budget the answer is 429 `rate_limited` with `Retry-After: <seconds>`.',
    '',
    '## Idempotency',
    `POST, PUT and PATCH accept \`Idempotency-Key\` (recommended: a UUID v4; at most 255 characters). The first response to a key (status and body) is kept for ${retentionHours} hours and returned again, ` +
      'with `Idempotent-Replayed: true` and `Original-Request: <request id>`, for a retry with the same key, method, path and body. The same key with a different request is 422 `idempotency_key_in_use`; ' +
      'a retry while the first request is still running is 409 `idempotency_request_in_flight`. A 5xx answer, and a request rejected as malformed before it ran, are not kept: the key is released and a retry runs. ' +
      'Keys are scoped to the organization and the `Service-On-Behalf-Of` value. Without the header a request simply runs.',
    '',
    '## Acting for a client',
    '`Service-On-Behalf-Of: org_<32 hex>` makes the call for a client organization. Endpoints that accept it say so and say who may use it: the organization that created the client, or (where stated) also an organization holding an ACTIVE authorization (LOA) from it. ' +
      'An unknown organization is 404 `organization_not_found`, a caller without the relation 403 `forbidden`. Every other endpoint answers the header with 400 `invalid_request` rather than silently acting as the caller.',
    '',
    '## Pagination',
    'Lists are `{object: "list", data, hasMore, nextCursor}`, newest first (by creation time, then id), with `X-Page-Size` and, unless on the last page, `X-Next-Cursor`. ' +
      'Pass `limit` (1–100, default 25) and the opaque `cursor` from the previous page; a cursor that was altered or comes from another list is 400 `invalid_request`. ' +
      'Items created while a client pages never appear on a page it has still to read, so a walk returns every item that existed when it started exactly once.',
    '',
    '## Sandbox and production',
    ENVIRONMENTS[config.serviceEnv],
    '',
    '## Errors',
    errorCatalogTable(),
  ].join('\n');
}

/** The OpenAPI 3.1 document: every route, schema, header and error code. */
export function buildOpenApiDocument(app: INestApplication, config: GatewayConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Partner Finance Service API')
    .setDescription(describeApi(config))
    .setVersion('1.0.0')
    .addServer('/', `This deployment (${config.serviceEnv})`)
    // Every tag an operation carries is described here (a test holds it): the introduction points partners to these.
    .addTag('Organizations', 'The caller and the client organizations it creates.')
    .addTag('Authorizations', 'Letters of Authorization (LOA): letting another organization act for the caller.')
    .addTag('Accounts', 'Accounts, their real-time balances and their statements.')
    .addTag('Assets', 'What the organization can receive.')
    .addTag('Funding methods', 'How money reaches an account: the deposit addresses and bank details provisioned for an asset.')
    .addTag('Transactions', 'Every movement of money on the organization’s accounts, with its status; status changes are also sent as webhook events.')
    .addTag('Quotes', 'Exchange quotes between two assets: priced at the mid-rate less the organization’s spread, valid for 5 minutes, executed as a trade.')
    .addTag('Fees', 'The organization’s effective pricing: the spread on trades and the fee of each payout rail.')
    .addTag('Beneficiaries', 'Recipients of the organization’s payouts and transfers: bank accounts, crypto wallets and other organizations, with their lifecycle.')
    .addTag('Payouts', 'Money sent from an account to a bank or crypto beneficiary: amount and fee are held at once, and the payout moves through its statuses.')
    .addTag('Servicenet', 'The network in which organizations on the platform send each other money, and the handle others find the organization by.')
    .addTag('Transfers', 'Money sent to another organization on servicenet.')
    .addTag('Sub-org tiers', 'Pricing tiers an organization puts its client organizations on.')
    .addTag('Referral invites', 'Sign-up links that make the caller the referrer of the organizations signing up through them.')
    .addTag(
      'Webhooks',
      'Endpoints that receive signed event notifications, their secrets, and the record and replay of their deliveries. ' +
        'A delivery may also carry a W3C `traceparent` header naming it in our traces: quote it when you report a problem with a delivery.',
    )
    .addTag('Sandbox', 'Simulations available only in the sandbox; in production these routes answer 404 `not_found`.')
    .addTag('Health', 'Probes for orchestrators; no authentication.')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: `sk_test_<64 hex>` (sandbox) or `sk_live_<64 hex>` (production).' })
    .build();
  return toOpenApi31(documentPlatformBehaviours(SwaggerModule.createDocument(app, builder, { extraModels: [ErrorEnvelopeDto] })));
}

/** Serves the document at /openapi.json and Swagger UI at /docs; both are public. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Partner Finance Service API',
  });
}
