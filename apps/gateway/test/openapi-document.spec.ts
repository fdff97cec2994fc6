import SwaggerParser from '@apidevtools/swagger-parser';
import { ERROR_CODES, type ErrorCode } from '@pfs/contracts';
import { isolateQueues } from '@pfs/testing';
import { ERROR_STATUS } from '../src/errors/error-status.table';
import { AMOUNT_BOUND, AMOUNT_PATTERN } from '../src/validation/is-amount.decorator';
import { TestEffectsController } from './support/test-effects.controller';
import { startTestGateway, type TestGateway } from './support/test-gateway';

isolateQueues('gw-openapi');

/** Answered by the HTTP layer before routing, with `invalid_request`: the examples that name them. */
const TRANSPORT_STATUS: Record<string, number> = { request_timeout: 408, headers_too_large: 431 };

/** Spec §7, transcribed independently of the catalog under test. */
const SPEC_ERROR_CODES = [
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
];

/** Spec §7 "Codes listed per endpoint", transcribed: [method, path, codes]. */
const SPEC_CODES_PER_ENDPOINT: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  ['get', '/v1/assets', ['missing_api_key', 'forbidden', 'not_found', 'rate_limited', 'internal_error']],
  ['put', '/v1/organizations/sub-org-tier', ['missing_api_key', 'forbidden', 'not_found', 'validation_error', 'rate_limited', 'internal_error']],
  ['post', '/v1/referral-invites', ['missing_api_key', 'forbidden', 'quote_expired', 'validation_error', 'rate_limited', 'internal_error']],
  ['post', '/v1/beneficiaries/bank', ['invalid_request', 'missing_api_key', 'forbidden', 'not_found', 'quote_expired', 'rate_limited', 'internal_error']],
  ['patch', '/v1/beneficiaries/{beneficiaryId}', ['invalid_request', 'missing_api_key', 'forbidden', 'not_found', 'quote_expired', 'rate_limited', 'internal_error']],
  ['post', '/v1/transactions/faucet', ['invalid_request', 'missing_api_key', 'forbidden', 'not_found', 'rate_limited', 'internal_error']],
  ['post', '/v1/quotes', ['invalid_request', 'missing_api_key', 'forbidden', 'not_found', 'quote_expired', 'rate_limited', 'internal_error']],
  ['get', '/v1/accounts/{accountId}', ['missing_api_key', 'not_found', 'rate_limited', 'internal_error']],
  ['patch', '/v1/webhooks/endpoints/{endpointId}', ['missing_api_key', 'not_found', 'rate_limited', 'internal_error', 'chain_send_failed', 'invalid_request']],
  ['delete', '/v1/webhooks/endpoints/{endpointId}', ['missing_api_key', 'not_found', 'rate_limited', 'internal_error', 'chain_send_failed']],
];

interface Example {
  value: { error: { code: string } };
}
interface Response {
  description: string;
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { examples?: Record<string, Example>; schema?: { $ref?: string } }>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { maxLength?: number; pattern?: string };
}
interface Schema {
  required?: string[];
  enum?: string[];
  properties?: Record<string, { pattern?: string; description?: string }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  description?: string;
  requestBody?: { required?: boolean; description?: string; content: Record<string, { schema: { $ref: string } }> };
  parameters?: Parameter[];
  security?: unknown;
  responses: Record<string, Response>;
}
interface Document {
  info: { description: string };
  tags: Array<{ name: string; description?: string }>;
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

/*
 * The OpenAPI document as served, with the test-only mutating routes mounted beside the real
 * ones: every error code is documented with its status, and every operation documents the
 * platform behaviours it gets.
 */
describe('OpenAPI document', () => {
  let gateway: TestGateway;
  let document: Document;
  let raw: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ controllers: [TestEffectsController] });
    const answer = await gateway.request('/openapi.json');
    expect(answer.status).toBe(200);
    raw = answer.text;
    document = answer.json<Document>();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })));
  const authenticated = () => operations().filter(({ path }) => path.startsWith('/v1/'));
  const examplesOf = (response: Response | undefined) => Object.values(response?.content?.['application/json']?.examples ?? {});
  const codesOf = (response: Response | undefined) => examplesOf(response).map((example) => example.value.error.code);
  const operation = (path: string, method: string) => {
    const found = document.paths[path]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    return found;
  };

  it('is a valid OpenAPI 3.1 document, nullability written only in JSON Schema', async () => {
    await expect(SwaggerParser.validate(JSON.parse(raw) as never)).resolves.toBeDefined();
    expect((JSON.parse(raw) as { openapi: string }).openapi).toBe('3.1.0');
    // 3.0's keyword admits no null beside a reference; 3.1 validators ignore it altogether.
    expect(raw).not.toContain('"nullable"');
  });

  it('has every code of spec §7 in the one shared catalog, and nothing else', () => {
    expect([...ERROR_CODES].sort()).toEqual([...SPEC_ERROR_CODES].sort());
    expect(document.components.schemas.ErrorCode?.enum).toEqual([...ERROR_CODES]);
  });

  it('documents every code with its status and meaning in the error table', () => {
    for (const code of ERROR_CODES) {
      const row = new RegExp(`^\\| ${ERROR_STATUS[code]} \\| \`${code}\` \\| \\S.+ \\|$`, 'm');
      expect({ code, documented: row.test(document.info.description) }).toEqual({ code, documented: true });
    }
  });

  it('documents each error example under the status of the one error table', () => {
    let examples = 0;
    for (const { path, method, operation: op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [name, example] of Object.entries(response.content?.['application/json']?.examples ?? {})) {
          const code = example.value.error.code as ErrorCode;
          const expected = name === 'service_unavailable' ? 503 : (TRANSPORT_STATUS[name] ?? ERROR_STATUS[code]);
          expect({ path, method, code, status: Number(status) }).toEqual({ path, method, code, status: expected });
          expect(response.description).toContain(`\`${code}\``);
          examples++;
        }
      }
    }
    expect(examples).toBeGreaterThan(0);
  });

  it('gives every authenticated operation bearer security, the authentication, rate-limit and outage responses and headers', () => {
    for (const { path, method, operation: op } of authenticated()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect({ where, security: op.security }).toEqual({ where, security: [{ bearer: [] }] });
      expect({ where, codes: codesOf(op.responses['401']).sort() }).toEqual({ where, codes: ['authentication_failed', 'invalid_api_key', 'missing_api_key'] });
      expect({ where, codes: codesOf(op.responses['429']) }).toEqual({ where, codes: ['rate_limited'] });
      expect({ where, retryAfter: op.responses['429']?.headers?.['Retry-After']?.required }).toEqual({ where, retryAfter: true });
      expect({ where, codes: codesOf(op.responses['400']) }).toEqual({
        where,
        codes: expect.arrayContaining([expect.stringMatching(/^(invalid_request|validation_error)$/)]),
      });
      expect({ where, codes: codesOf(op.responses['500']) }).toEqual({ where, codes: ['internal_error'] });
      expect({ where, has503: op.responses['503'] !== undefined }).toEqual({ where, has503: true });
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect({ where, status, requestId: headers.includes('X-Request-Id') }).toEqual({ where, status, requestId: true });
        if (!['401', '408', '431'].includes(status)) expect({ where, status, headers }).toEqual({ where, status, headers: expect.arrayContaining(['RateLimit-Policy', 'RateLimit']) });
      }
    }
  });

  it('documents Idempotency-Key, its codes and the replay headers on every POST, PUT and PATCH, and only there', () => {
    const mutating = authenticated().filter(({ method }) => ['post', 'put', 'patch'].includes(method));
    expect(mutating.length).toBeGreaterThanOrEqual(4);
    for (const { path, method, operation: op } of mutating) {
      const where = `${method.toUpperCase()} ${path}`;
      const header = op.parameters?.find((parameter) => parameter.name === 'Idempotency-Key');
      expect({ where, header }).toEqual({ where, header: expect.objectContaining({ in: 'header', required: false, schema: expect.objectContaining({ maxLength: 255 }) }) });
      expect({ where, codes: codesOf(op.responses['409']) }).toEqual({ where, codes: expect.arrayContaining(['idempotency_request_in_flight']) });
      expect({ where, codes: codesOf(op.responses['422']) }).toEqual({ where, codes: expect.arrayContaining(['idempotency_key_in_use']) });
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1];
      expect({ where, replayed: Object.keys(success?.headers ?? {}) }).toEqual({ where, replayed: expect.arrayContaining(['Idempotent-Replayed', 'Original-Request']) });
    }
    for (const { path, method, operation: op } of authenticated().filter(({ method: m }) => m === 'get')) {
      expect({ path, method, header: op.parameters?.some((parameter) => parameter.name === 'Idempotency-Key') ?? false }).toEqual({ path, method, header: false });
    }
  });

  it('documents Service-On-Behalf-Of and its codes where a route accepts it, and its refusal elsewhere', () => {
    const assets = operation('/v1/assets', 'get');
    expect(assets.parameters?.find((parameter) => parameter.name === 'Service-On-Behalf-Of')).toEqual(
      expect.objectContaining({ in: 'header', required: false, schema: expect.objectContaining({ pattern: '^org_[0-9a-f]{32}$' }) }),
    );
    expect(codesOf(assets.responses['403'])).toEqual(['forbidden']);
    expect(codesOf(assets.responses['404'])).toEqual(['organization_not_found']);

    const strict = operation('/v1/test-effects/strict', 'post');
    expect(strict.parameters?.find((parameter) => parameter.name === 'Service-On-Behalf-Of')?.required).toBe(true);

    const accounts = operation('/v1/accounts', 'get');
    expect(accounts.parameters?.some((parameter) => parameter.name === 'Service-On-Behalf-Of')).toBe(false);
    expect(accounts.description).toContain('`Service-On-Behalf-Of` is not supported on this endpoint');
    expect(accounts.responses['403']).toBeUndefined();
  });

  it('documents the code a route answers malformed requests with', () => {
    expect(codesOf(operation('/v1/test-effects/strict', 'post').responses['400']).sort()).toEqual(['validation_error']);
    expect(codesOf(operation('/v1/test-effects', 'post').responses['400'])).toEqual(['invalid_request']);
  });

  it('documents paginated lists with the list schema, their query and their headers', () => {
    const list = operation('/v1/accounts', 'get');
    expect(list.parameters?.map((parameter) => parameter.name).sort()).toEqual(['cursor', 'limit']);
    expect(Object.keys(list.responses['200']?.headers ?? {})).toEqual(expect.arrayContaining(['X-Page-Size', 'X-Next-Cursor']));
    expect(list.responses['200']?.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/AccountList');
    expect(Object.keys(list.responses).sort()).toEqual(['200', '400', '401', '408', '429', '431', '500', '503']);
  });

  it('answers, or accounts for, every code spec §7 lists for each endpoint built so far', () => {
    const built = SPEC_CODES_PER_ENDPOINT.filter(([method, path]) => document.paths[path]?.[method]);
    // The rows of the endpoints that exist today; the rest join this check when their routes do.
    expect(built.map(([method, path]) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([
        'get /v1/assets',
        'put /v1/organizations/sub-org-tier',
        'post /v1/referral-invites',
        'get /v1/accounts/{accountId}',
        'post /v1/beneficiaries/bank',
        'patch /v1/beneficiaries/{beneficiaryId}',
        'post /v1/quotes',
      ]),
    );
    for (const [method, path, listed] of built) {
      const op = operation(path, method);
      const answered = new Set(Object.values(op.responses).flatMap((response) => codesOf(response)));
      const unaccounted = listed.filter((code) => {
        if (answered.has(code)) return false;
        if (op.description?.includes(`\`${code}\` is never answered here: `)) return false;
        const mapped = new RegExp(`\`${code}\` is answered as ((?:\`[a-z_]+\`(?: or )?)+): `).exec(op.description ?? '');
        return !mapped || !mapped[1].split(' or ').every((specific) => answered.has(specific.replaceAll('`', '')));
      });
      expect({ endpoint: `${method.toUpperCase()} ${path}`, unaccounted }).toEqual({ endpoint: `${method.toUpperCase()} ${path}`, unaccounted: [] });
    }
    expect(operation('/v1/referral-invites', 'post').description).toContain('`quote_expired` is never answered here: this endpoint involves no quote.');
    expect(operation('/v1/organizations/sub-org-tier', 'put').description).toContain(
      '`not_found` is answered as `organization_not_found` or `sub_org_tier_not_found`: ',
    );
    expect(operation('/v1/beneficiaries/{beneficiaryId}', 'patch').description).toContain(
      '`not_found` is answered as `beneficiary_not_found` or `account_not_found`: ',
    );
    expect(operation('/v1/beneficiaries/bank', 'post').description).toContain('`quote_expired` is never answered here: this endpoint involves no quote.');
    const createQuote = operation('/v1/quotes', 'post').description;
    expect(createQuote).toContain('`not_found` is answered as `account_not_found`: ');
    expect(createQuote).toContain('`forbidden` is never answered here: ');
    expect(createQuote).toContain('`quote_expired` is never answered here: creating a quote involves no existing quote.');
  });

  it('documents the transport errors and the headers of every response on every operation', () => {
    for (const { path, method, operation: op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect({ where, 408: codesOf(op.responses['408']), 431: codesOf(op.responses['431']) }).toEqual({ where, 408: ['invalid_request'], 431: ['invalid_request'] });
      for (const [status, response] of Object.entries(op.responses)) {
        const required = Object.entries(response.headers ?? {}).filter(([, header]) => header.required).map(([name]) => name);
        expect({ where, status, required }).toEqual({ where, status, required: expect.arrayContaining(['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options']) });
      }
    }
  });

  it('cites no internal document or issue anywhere partners read it: every description and summary says the rule itself', () => {
    const citing: string[] = [];
    const walk = (value: unknown, where: string) => {
      if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${where}[${index}]`));
      else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, `${where}.${key}`);
      else if (typeof value === 'string' && /\bspec\s*§?\d|api-decisions|\bissue\s*\d|§/i.test(value)) citing.push(`${where}: ${value.slice(0, 120)}`);
    };
    walk(document, '$');
    expect(citing).toEqual([]);
  });

  it('introduces the API by what every operation shares, claiming nothing for later and citing no internal document', () => {
    const introduction = document.info.description.split('\n## Errors')[0]!;
    expect(introduction).not.toMatch(/\blater\b|not yet|coming soon|future|planned/i);
    expect(introduction).not.toMatch(/\bspec\b|api-decisions|\bissue\b|§/i);
    for (const section of ['## Conventions', '## Rate limits', '## Idempotency', '## Acting for a client', '## Pagination', '## Sandbox and production', '## Errors']) {
      expect(document.info.description).toContain(section);
    }
    expect(introduction).toContain('This deployment is the **sandbox**');
  });

  it('describes every tag an operation carries, and names every sandbox-only operation as one', () => {
    const described = new Map(document.tags.map((tag) => [tag.name, tag.description ?? '']));
    // The test-only routes mounted here carry a tag of their own that the served document never has.
    for (const { path, method, operation: op } of operations().filter((entry) => !entry.path.startsWith('/v1/test-effects'))) {
      for (const tag of op.tags ?? []) expect({ path, method, tag, described: (described.get(tag) ?? '').length > 0 }).toEqual({ path, method, tag, described: true });
      if (path.startsWith('/v1/sandbox/') || path === '/v1/transactions/faucet') expect({ path, summary: op.summary }).toEqual({ path, summary: expect.stringMatching(/^Sandbox: /) });
    }
  });

  it('marks a request body required exactly when its schema requires a field: a missing body is read as {}', () => {
    const bodies = operations().filter(({ operation: op }) => op.requestBody);
    expect(bodies.length).toBeGreaterThan(10);
    for (const { path, method, operation: op } of bodies) {
      const schema = document.components.schemas[op.requestBody!.content['application/json']!.schema.$ref.split('/').pop()!];
      const required = (schema?.required?.length ?? 0) > 0;
      expect({ path, method, required: op.requestBody!.required }).toEqual({ path, method, required });
    }
    const rotate = operation('/v1/webhooks/endpoints/{endpointId}/secret/rotate', 'post').requestBody;
    expect(rotate).toEqual(expect.objectContaining({ required: false, description: expect.stringContaining('a request without one is read as `{}`') }));
    expect(operation('/v1/organizations/sub-org-tier', 'put').requestBody?.required).toBe(false);
    expect(operation('/v1/payouts/crypto', 'post').requestBody?.required).toBe(true);
  });

  it('states the bound of every amount: in the introduction, and as pattern and description of the field', () => {
    expect(AMOUNT_BOUND).toBe('at most 15 digits before the decimal point (less than 1000000000000000)');
    expect(document.info.description).toContain(`greater than zero, with ${AMOUNT_BOUND}`);
    for (const [schema, field] of [
      ['CryptoPayoutRequest', 'amount'],
      ['FiatPayoutRequest', 'amount'],
      ['TransferRequest', 'amount'],
      ['FaucetRequest', 'amount'],
      ['CreateQuoteRequest', 'fromAmount'],
      ['CreateQuoteRequest', 'toAmount'],
    ] as const) {
      const property = document.components.schemas[schema]?.properties?.[field];
      expect({ schema, field, property }).toEqual({ schema, field, property: expect.objectContaining({ pattern: AMOUNT_PATTERN, description: expect.stringContaining(AMOUNT_BOUND) }) });
    }
    const pattern = new RegExp(AMOUNT_PATTERN);
    expect(pattern.test('999999999999999.99')).toBe(true);
    expect(pattern.test('99999999999999999999.5')).toBe(false);
  });

  it('leaves no internal markers in the document and keeps public routes public', () => {
    expect(raw).not.toContain('x-pfs-');
    for (const path of ['/healthz', '/readyz']) {
      const op = operation(path, 'get');
      expect(op.security).toBeUndefined();
      expect(op.responses['401']).toBeUndefined();
    }
  });
});
