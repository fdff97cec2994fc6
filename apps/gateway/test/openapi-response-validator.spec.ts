import { isolateQueues } from '@pfs/testing';
import { OpenApiResponseValidator, type ObservedResponse, type OpenApiDocument } from './support/openapi-response-validator';
import { startTestGateway, type TestGateway } from './support/test-gateway';

isolateQueues('gw-openapi-validator');

const REQUEST_ID = 'req_0123456789abcdef0123456789abcdef';

/** A small document of the same shape as the gateway's: one operation, an envelope, a nullable reference. */
const DOCUMENT: OpenApiDocument = {
  openapi: '3.1.0',
  paths: {
    '/v1/things/{thingId}': {
      get: {
        responses: {
          '200': {
            headers: {
              'X-Request-Id': { required: true, schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' } },
              'X-Page-Size': { schema: { type: 'integer', minimum: 0 } },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
        },
      },
    },
    '/v1/things/special': { get: { responses: { '204': { description: 'nothing' } } } },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'kind', 'owner', 'createdAt'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^thing_[0-9a-f]{4}$' },
          kind: { type: 'string', enum: ['A', 'B'], example: 'A' },
          owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
          createdAt: { type: 'string', format: 'date-time' },
        },
      },
      Owner: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      ErrorEnvelope: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['code', 'message', 'requestId'], properties: { code: { type: 'string' }, message: { type: 'string' }, requestId: { type: 'string' } } } },
      },
    },
  },
};

const thing = { id: 'thing_00ff', kind: 'A', owner: { name: 'Ada' }, createdAt: '2026-11-21T04:44:09.123Z' };

function observed(overrides: Partial<Omit<ObservedResponse, 'headers'>> & { headers?: Record<string, string>; body?: unknown } = {}): ObservedResponse {
  const { headers, body, ...rest } = overrides;
  return {
    method: 'GET',
    url: '/v1/things/thing_00ff',
    status: 200,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': REQUEST_ID, ...headers }),
    text: body === undefined ? JSON.stringify(thing) : typeof body === 'string' ? body : JSON.stringify(body),
    ...rest,
  };
}

describe('OpenAPI response validator', () => {
  const validator = new OpenApiResponseValidator(DOCUMENT);

  it('accepts a response that matches the document, a null where a reference is nullable included', () => {
    expect(validator.problems(observed())).toEqual([]);
    expect(validator.problems(observed({ body: { ...thing, owner: null }, headers: { 'x-page-size': '3' } }))).toEqual([]);
    expect(validator.problems(observed({ url: '/v1/things/special', status: 204, body: '' }))).toEqual([]);
  });

  it('catches a status the operation does not document', () => {
    expect(validator.problems(observed({ status: 500, body: { error: { code: 'internal_error', message: 'x', requestId: REQUEST_ID } } }))).toEqual([
      'GET /v1/things/{thingId}: status 500 is not documented (documented: 200, 404)',
    ]);
  });

  it('catches a body that does not match the schema: a value outside the enum, null where not nullable, an undocumented field, a bad format', () => {
    expect(validator.problems(observed({ body: { ...thing, kind: 'C' } }))).toEqual([expect.stringContaining('/kind must be equal to one of the allowed values')]);
    expect(validator.problems(observed({ body: { ...thing, kind: null } }))).not.toEqual([]);
    expect(validator.problems(observed({ body: { ...thing, owner: { name: null } } }))).toEqual(expect.arrayContaining([expect.stringContaining('/owner/name must be string')]));
    expect(validator.problems(observed({ body: { ...thing, extra: 1 } }))).toEqual([expect.stringContaining('must NOT have additional properties')]);
    expect(validator.problems(observed({ body: { ...thing, createdAt: 'yesterday' } }))).toEqual([expect.stringContaining('/createdAt must match format "date-time"')]);
    expect(validator.problems(observed({ body: 'not json' }))).toEqual(['GET /v1/things/{thingId} 200: the body is not JSON']);
  });

  it('catches a missing required header, a header that does not match its schema, and an undocumented media type', () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    expect(validator.problems({ ...observed(), headers })).toEqual(['GET /v1/things/{thingId} 200: the required header X-Request-Id is missing']);
    expect(validator.problems(observed({ headers: { 'x-page-size': '-1' } }))).toEqual([expect.stringContaining('header X-Page-Size: (root) must be >= 0')]);
    expect(validator.problems(observed({ headers: { 'content-type': 'text/html' } }))).toEqual([
      'GET /v1/things/{thingId} 200: Content-Type text/html is not documented (documented: application/json)',
    ]);
    expect(validator.problems(observed({ url: '/v1/things/special', status: 204, body: '{}' }))).toEqual([
      'GET /v1/things/special 204: a body is sent where the document describes none',
    ]);
  });

  it('prefers a concrete path to a template, and holds a path with no operation to the 404 envelope', () => {
    // /v1/things/special is concrete: 200 is not among its responses, even though the template documents it.
    expect(validator.problems(observed({ url: '/v1/things/special' }))).toEqual([expect.stringContaining('GET /v1/things/special: status 200 is not documented')]);
    expect(validator.problems(observed({ url: '/v1/nothing', status: 200 }))).toEqual(['GET /v1/nothing: no operation in the document, and answered 200']);
    expect(validator.problems(observed({ method: 'DELETE', status: 404, body: { error: { code: 'not_found', message: 'x', requestId: REQUEST_ID } } }))).toEqual([]);
    expect(validator.problems(observed({ url: '/v1/nothing', status: 404, body: { error: { code: 'forbidden', message: 'x', requestId: REQUEST_ID } } }))).toEqual([
      'GET /v1/nothing: no operation in the document, answered 404 with code forbidden instead of not_found',
    ]);
  });

  it('refuses a 3.0 document and a schema keyword it does not know, rather than validating loosely', () => {
    expect(() => new OpenApiResponseValidator({ ...DOCUMENT, openapi: '3.0.0' })).toThrow(/3\.1/);
    const loose = new OpenApiResponseValidator({
      ...DOCUMENT,
      components: { schemas: { ...DOCUMENT.components?.schemas, Thing: { type: 'object', properties: { owner: { type: 'object', nullable: true } } } } },
    });
    expect(() => loose.problems(observed())).toThrow(/nullable/);
  });
});

/*
 * The gateway's own document, as served: the three responses a third-party validator (Prism)
 * rejected against the former 3.0 document now match it, and a value outside an enum still
 * does not.
 */
describe('the served document and the responses Prism rejected', () => {
  let gateway: TestGateway;
  let validator: OpenApiResponseValidator;

  beforeAll(async () => {
    gateway = await startTestGateway();
    validator = new OpenApiResponseValidator((await gateway.request('/openapi.json')).json<OpenApiDocument>());
  });

  afterAll(async () => {
    await gateway?.close();
  });

  const headers = { 'x-request-id': REQUEST_ID, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  const organization = {
    object: 'organization',
    organizationId: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d',
    name: 'Ada Ltd',
    entityType: null,
    country: null,
    email: 'ada@example.com',
    verificationStatus: 'PENDING',
    parentOrganizationId: null,
    referrerOrganizationId: 'org_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c',
    primaryAccountId: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c',
    createdAt: '2026-11-21T04:44:09.123Z',
  };

  it('accepts a crypto funding method with bank: null (POST /v1/funding-methods)', () => {
    const method = {
      object: 'funding_method',
      fundingMethodId: 'fm_1c8e3a5d7f9b0c2e4a6d8f1b3c5e7a9d',
      accountId: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c',
      asset: 'USDC',
      type: 'CRYPTO_ADDRESS',
      chainName: 'ETHEREUM_SEPOLIA',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      bank: null,
      createdAt: '2026-11-21T04:44:09.123Z',
    };
    const list = { object: 'list', data: [method], hasMore: false, nextCursor: null };
    expect(validator.problems(observed({ method: 'POST', url: '/v1/funding-methods', status: 200, body: list, headers }))).toEqual([]);
  });

  it('accepts tier: null after a removal (PUT /v1/organizations/sub-org-tier)', () => {
    const assignment = { object: 'sub_org_tier_assignment', organizationId: organization.organizationId, tier: null };
    expect(validator.problems(observed({ method: 'PUT', url: '/v1/organizations/sub-org-tier', status: 200, body: assignment, headers }))).toEqual([]);
  });

  it('accepts organization.entityType: null of a referred organization (POST /v1/sandbox/referral-invites/{id}/accept), and no other value outside the enum', () => {
    const url = '/v1/sandbox/referral-invites/refinv_0c2e4a6b8d1f3e5a7c9b0d2f4a6c8e1b/accept';
    const signUp = { organization, apiKey: `sk_test_${'a'.repeat(64)}` };
    expect(validator.problems(observed({ method: 'POST', url, status: 201, body: signUp, headers }))).toEqual([]);
    const alien = { ...signUp, organization: { ...organization, entityType: 'ALIEN' } };
    expect(validator.problems(observed({ method: 'POST', url, status: 201, body: alien, headers }))).toEqual(
      expect.arrayContaining([expect.stringContaining('/organization/entityType must be equal to one of the allowed values')]),
    );
  });
});
