import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ServiceEnvironment } from '@pfs/contracts';
import { ErrorEnvelopeDto } from './error-envelope.dto';

export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

const DESCRIPTION = [
  'Accounts, balances, assets and (in later versions) quotes, beneficiaries, payouts and webhooks of a partner organization.',
  '',
  'Conventions:',
  '- Authenticate every `/v1` call with `Authorization: Bearer <api_key>` (`sk_test_…` in the sandbox, `sk_live_…` in production). The scheme name is matched case-insensitively.',
  '- Every response carries `X-Request-Id: req_<32 hex>`; an error body repeats it as `requestId`. Quote it when contacting support.',
  '- Errors are `{"error": {"code", "message", "requestId"}}`; `code` is one of the `ErrorCode` values, and each code always has the same HTTP status.',
  '- A service that does not answer in time gives 503 with code `internal_error` and a message naming the service; the request can be retried.',
  '- Amounts are decimal strings in major units; timestamps are ISO 8601 UTC with milliseconds.',
  '- Lists are `{object: "list", data, hasMore, nextCursor}`, newest first, with `X-Page-Size` and, unless on the last page, `X-Next-Cursor`.',
  '- Unknown query parameters are rejected with 400 `invalid_request`, so a misspelt one is never silently ignored. Request bodies are JSON, at most 1 MiB.',
].join('\n');

/** The OpenAPI 3 document: every route, schema, header and error code. */
export function buildOpenApiDocument(app: INestApplication, environment: ServiceEnvironment): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Partner Finance Service API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addServer('/', `This deployment (${environment})`)
    .addTag('Assets', 'What the organization can receive.')
    .addTag('Accounts', 'Accounts and their real-time balances.')
    .addTag('Health', 'Probes for orchestrators; no authentication.')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: `sk_test_<64 hex>` (sandbox) or `sk_live_<64 hex>` (production).' })
    .build();
  return SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorEnvelopeDto],
  });
}

/** Serves the document at /openapi.json and Swagger UI at /docs; both are public. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Partner Finance Service API',
  });
}
