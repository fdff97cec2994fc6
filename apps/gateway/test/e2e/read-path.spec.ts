import SwaggerParser from '@apidevtools/swagger-parser';
import { randomBytes } from 'node:crypto';
import { ERROR_CODES, generateApiKey, newId } from '@pfs/contracts';
import { createPrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError, REQUEST_ID, startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-read');

/** The parts of the OpenAPI document these tests read. */
interface OpenApiOperation {
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
  parameters?: Array<{ name: string }>;
  security?: unknown;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers: unknown[];
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { enum?: string[] } | undefined> };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/*
 * The whole stack as real processes; every request goes through the gateway, the command
 * queues and the owning services, and organizations come from the operator CLI.
 */
describe('gateway end to end: authentication, assets, accounts, documentation', () => {
  let e2e: E2eStack;
  let alpha: CreatedOrganization;
  let beta: CreatedOrganization;

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    [alpha, beta] = await Promise.all([e2e.createOrganization('e2e alpha'), e2e.createOrganization('e2e beta')]);
  }, 120000);

  afterAll(async () => {
    await e2e?.stop();
  }, 60000);

  describe('authentication', () => {
    it('answers 401 missing_api_key without an Authorization header', async () => {
      const error = expectError(await e2e.get('/v1/accounts'), 401, 'missing_api_key');
      expect(error.message).toMatch(/Authorization: Bearer/);
    });

    it.each([
      ['a garbage bearer token', 'Bearer garbage'],
      ['another scheme', 'Basic x'],
      ['a production key in the sandbox', `Bearer ${generateApiKey('production')}`],
      ['a key without the scheme', generateApiKey('sandbox')],
      ['a truncated key', `Bearer ${generateApiKey('sandbox').slice(0, -1)}`],
    ])('answers 401 invalid_api_key for %s', async (_label, authorization) => {
      expectError(await e2e.get('/v1/assets', { headers: { authorization } }), 401, 'invalid_api_key');
    });

    it('answers 401 authentication_failed for a well-formed key nobody issued', async () => {
      expectError(await e2e.get('/v1/assets', { key: generateApiKey('sandbox') }), 401, 'authentication_failed');
    });

    // The 5 s bound itself is the authenticator's cache TTL, proven with an injected clock in
    // src/auth/api-key.authenticator.spec.ts; here, that a CLI revocation reaches the gateway.
    it('stops accepting a key revoked through the CLI', async () => {
      const { keyId, apiKey } = await e2e.cli<{ keyId: string; apiKey: string }>('key:create', '--org', alpha.organizationId);
      // Used right before the revocation starts, so the gateway holds a fresh "valid" answer.
      expect((await e2e.get('/v1/assets', { key: apiKey })).status).toBe(200);

      await e2e.cli('key:revoke', '--key', keyId);
      // A generous deadline: how soon is the unit test's to say, not this machine's speed.
      const refused = await eventually(async () => {
        const answer = await e2e.get('/v1/assets', { key: apiKey });
        return answer.status === 401 ? answer : undefined;
      }, 30000, 50);
      expectError(refused, 401, 'authentication_failed');
      // The organization's other key is untouched.
      expect((await e2e.get('/v1/assets', { key: alpha.apiKey })).status).toBe(200);
      // Two CLI processes start here; on a busy machine they alone can take longer than jest's default 30 s.
    }, 120000);

    it('never writes an API key or the Authorization header into the logs', async () => {
      const answer = await e2e.get('/v1/assets', { key: alpha.apiKey });
      const requestId = answer.headers.get('x-request-id') ?? '';
      // This file's own keys, wherever they might appear; the header, on this request's lines.
      await eventually(async () => (e2e.gatewayLog().some((line) => line.requestId === requestId) ? true : undefined), 15000, 50);
      const lines = [...e2e.stack.apps.values()].flatMap((app) => app.output);
      const output = lines.join('\n');
      expect(output).not.toContain(alpha.apiKey);
      expect(output).not.toContain(beta.apiKey);
      expect(lines.filter((line) => line.includes(requestId) && line.toLowerCase().includes('bearer sk_'))).toEqual([]);
    });
  });

  describe('requests, errors and logs', () => {
    it('answers an unknown route with the 404 not_found envelope and a request id', async () => {
      expectError(await e2e.get('/v1/does-not-exist', { key: alpha.apiKey }), 404, 'not_found');
      expectError(await e2e.get('/nothing'), 404, 'not_found');
    });

    it('rejects Service-On-Behalf-Of on routes that do not support it', async () => {
      for (const path of ['/v1/accounts', `/v1/accounts/${alpha.accountId}`]) {
        const answer = await e2e.get(path, { key: alpha.apiKey, headers: { 'Service-On-Behalf-Of': beta.organizationId } });
        expect(expectError(answer, 400, 'invalid_request').message).toBe('Service-On-Behalf-Of is not supported on this endpoint.');
      }
    });

    it('asks the organization service before acting for another organization on the asset list', async () => {
      const answer = await e2e.get('/v1/assets', { key: alpha.apiKey, headers: { 'Service-On-Behalf-Of': beta.organizationId } });
      expect(expectError(answer, 403, 'forbidden').message).toContain(beta.organizationId);
    });

    it('carries the rate-limit headers on every authenticated response, with the stack’s limit', async () => {
      const answer = await e2e.get('/v1/assets', { key: alpha.apiKey });
      // The default of 1000 a minute is asserted in test/with-services/rate-limit.spec.ts.
      expect(answer.headers.get('ratelimit-policy')).toBe(`"default";q=${e2e.env.RATE_LIMIT_PER_MINUTE ?? '1000'};w=60`);
      expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    });

    it('rejects unknown query parameters', async () => {
      const assets = await e2e.get('/v1/assets?expand=all', { key: alpha.apiKey });
      expect(expectError(assets, 400, 'invalid_request').message).toBe('expand: is not a recognised parameter');
      const accounts = await e2e.get('/v1/accounts?limit=5&sort=asc', { key: alpha.apiKey });
      expect(expectError(accounts, 400, 'invalid_request').message).toBe('sort: is not a recognised parameter');
    });

    it('gives every response a fresh X-Request-Id, and logs one access line per request under it', async () => {
      const first = await e2e.get('/v1/assets', { key: alpha.apiKey });
      const second = await e2e.get('/v1/accounts/acct_nope', { key: alpha.apiKey });
      const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
      expect(ids[0]).toMatch(REQUEST_ID);
      expect(ids[1]).toMatch(REQUEST_ID);
      expect(ids[0]).not.toBe(ids[1]);

      const access = await eventually(async () => {
        const lines = e2e.gatewayLog().filter((line) => line.msg === 'request completed' && ids.includes(line.requestId as string));
        return lines.length === 2 ? lines : undefined;
      });
      expect(access).toEqual([
        expect.objectContaining({ requestId: ids[0], method: 'GET', route: '/v1/assets', status: 200, durationMs: expect.any(Number) }),
        expect.objectContaining({ requestId: ids[1], method: 'GET', route: '/v1/accounts/:accountId', status: 404 }),
      ]);
    });
  });

  describe('GET /v1/assets', () => {
    it('lists the six catalog assets, all AVAILABLE to a new organization, with their scales', async () => {
      const answer = await e2e.get('/v1/assets', { key: alpha.apiKey });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toMatch(REQUEST_ID);
      const body = answer.json<{ object: string; data: Array<Record<string, unknown>>; hasMore: boolean; nextCursor: null }>();
      expect(body).toEqual({
        object: 'list',
        hasMore: false,
        nextCursor: null,
        data: expect.any(Array),
      });
      const byCode = Object.fromEntries(body.data.map((asset) => [asset.code, asset]));
      expect(Object.keys(byCode).sort()).toEqual(['BTC', 'ETH', 'EUR', 'USD', 'USDC', 'USDT']);
      expect(byCode.USD).toEqual({ object: 'asset', code: 'USD', name: expect.any(String), type: 'FIAT', scale: 2, status: 'AVAILABLE' });
      expect(byCode.EUR).toMatchObject({ type: 'FIAT', scale: 2, status: 'AVAILABLE' });
      expect(byCode.USDC).toMatchObject({ type: 'CRYPTO', scale: 6, status: 'AVAILABLE' });
      expect(byCode.USDT).toMatchObject({ type: 'CRYPTO', scale: 6, status: 'AVAILABLE' });
      expect(byCode.BTC).toMatchObject({ type: 'CRYPTO', scale: 8, status: 'AVAILABLE' });
      expect(byCode.ETH).toMatchObject({ type: 'CRYPTO', scale: 18, status: 'AVAILABLE' });
    });
  });

  describe('GET /v1/accounts', () => {
    const expectAccount = (account: unknown, accountId: string) =>
      expect(account).toEqual({
        object: 'account',
        accountId,
        name: expect.any(String),
        description: null,
        isPrimary: true,
        status: 'ACTIVE',
        fundingMethods: [],
        balances: [],
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });

    it('eventually lists the primary account the ledger opened from organization.created', async () => {
      const answer = await eventually(async () => {
        const candidate = await e2e.get('/v1/accounts', { key: beta.apiKey });
        return candidate.status === 200 && candidate.json<{ data: unknown[] }>().data.length === 1 ? candidate : undefined;
      }, 10000, 100);
      const body = answer.json<{ object: string; data: unknown[]; hasMore: boolean; nextCursor: string | null }>();
      expect(body).toEqual({ object: 'list', data: [expect.anything()], hasMore: false, nextCursor: null });
      expectAccount(body.data[0], beta.accountId);
      expect(answer.headers.get('x-page-size')).toBe('1');
      expect(answer.headers.has('x-next-cursor')).toBe(false);
    });

    it('pages newest first with limit and cursor, headers included, and refuses a tampered cursor and another organization’s', async () => {
      await eventually(async () => ((await e2e.get(`/v1/accounts/${alpha.accountId}`, { key: alpha.apiKey })).status === 200 ? true : undefined), 10000, 100);
      // No endpoint opens secondary accounts yet: seed two straight into the ledger's table.
      const older = newId('account');
      const newer = newId('account');
      const prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-e2e' });
      try {
        const base = Date.now() + 60_000;
        await prisma.ledgerAccount.createMany({
          data: [older, newer].map((id, index) => ({
            id,
            organizationId: alpha.organizationId,
            name: `Seeded ${index}`,
            isPrimary: false,
            status: 'ACTIVE',
            createdAt: new Date(base + index * 1000),
            updatedAt: new Date(base + index * 1000),
          })),
        });
      } finally {
        await prisma.$disconnect();
      }

      const first = await e2e.get('/v1/accounts?limit=2', { key: alpha.apiKey });
      expect(first.status).toBe(200);
      const firstBody = first.json<{ data: Array<{ accountId: string }>; hasMore: boolean; nextCursor: string }>();
      expect(firstBody.data.map((account) => account.accountId)).toEqual([newer, older]);
      expect(firstBody.hasMore).toBe(true);
      expect(first.headers.get('x-page-size')).toBe('2');
      expect(first.headers.get('x-next-cursor')).toBe(firstBody.nextCursor);

      const second = await e2e.get(`/v1/accounts?limit=2&cursor=${encodeURIComponent(firstBody.nextCursor)}`, { key: alpha.apiKey });
      expect(second.status).toBe(200);
      expect(second.json<{ data: Array<{ accountId: string }> }>().data.map((account) => account.accountId)).toEqual([alpha.accountId]);
      expect(second.json<{ hasMore: boolean; nextCursor: null }>()).toMatchObject({ hasMore: false, nextCursor: null });
      expect(second.headers.get('x-page-size')).toBe('1');
      expect(second.headers.has('x-next-cursor')).toBe(false);

      const cursor = firstBody.nextCursor;
      const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
      for (const tampered of [flipped, `${cursor}x`, 'not-a-cursor', randomBytes(24).toString('base64url')]) {
        const answer = await e2e.get(`/v1/accounts?cursor=${encodeURIComponent(tampered)}`, { key: alpha.apiKey });
        expect(expectError(answer, 400, 'invalid_request').message).toMatch(/^cursor: /);
      }
      // Another organization's cursor of the same list is another list's cursor.
      const foreign = await e2e.get(`/v1/accounts?cursor=${encodeURIComponent(cursor)}`, { key: beta.apiKey });
      expect(expectError(foreign, 400, 'invalid_request').message).toMatch(/^cursor: /);
    });

    it.each(['0', '101', 'abc', '1.5', '-1', '', '1e1'])('rejects limit=%s with 400 invalid_request naming the field', async (limit) => {
      const answer = await e2e.get(`/v1/accounts?limit=${limit}`, { key: alpha.apiKey });
      expect(expectError(answer, 400, 'invalid_request').message).toBe('limit: must be an integer between 1 and 100');
    });

    it('accepts the limits at both ends', async () => {
      expect((await e2e.get('/v1/accounts?limit=1', { key: alpha.apiKey })).headers.get('x-page-size')).toBe('1');
      expect((await e2e.get('/v1/accounts?limit=100', { key: alpha.apiKey })).status).toBe(200);
    });
  });

  describe('GET /v1/accounts/{accountId}', () => {
    it('returns the caller’s own account in full', async () => {
      const answer = await eventually(async () => {
        const candidate = await e2e.get(`/v1/accounts/${beta.accountId}`, { key: beta.apiKey });
        return candidate.status === 200 ? candidate : undefined;
      }, 10000, 100);
      expect(answer.headers.get('x-request-id')).toMatch(REQUEST_ID);
      expect(answer.json()).toEqual({
        object: 'account',
        accountId: beta.accountId,
        name: expect.any(String),
        description: null,
        isPrimary: true,
        status: 'ACTIVE',
        fundingMethods: [],
        balances: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('answers 404 account_not_found for another organization’s account, an unknown id and a malformed id', async () => {
      await eventually(async () => ((await e2e.get(`/v1/accounts/${alpha.accountId}`, { key: alpha.apiKey })).status === 200 ? true : undefined), 10000, 100);
      expectError(await e2e.get(`/v1/accounts/${alpha.accountId}`, { key: beta.apiKey }), 404, 'account_not_found');
      expectError(await e2e.get(`/v1/accounts/${newId('account')}`, { key: beta.apiKey }), 404, 'account_not_found');
      for (const malformed of ['acct_123', 'org_00000000000000000000000000000000', `acct_${'A'.repeat(32)}`, 'x'.repeat(300), '%00']) {
        expectError(await e2e.get(`/v1/accounts/${malformed}`, { key: beta.apiKey }), 404, 'account_not_found');
      }
    });
  });

  describe('health and documentation', () => {
    it('answers /healthz and /readyz with 200 when every service runs', async () => {
      const live = await e2e.get('/healthz');
      expect(live.status).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const ready = await e2e.get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ok',
        checks: {
          redis: 'ok',
          organization: 'ok',
          ledger: 'ok',
          quote: 'ok',
          beneficiary: 'ok',
          'webhook-delivery': 'ok',
          'webhook-delivery-worker': 'ok',
        },
      });
    });

    it('serves an OpenAPI 3.1 document that validates and names every error code', async () => {
      const answer = await e2e.get('/openapi.json');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toMatch(REQUEST_ID);
      const document = answer.json<OpenApiDocument>();
      await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();

      expect(document.openapi).toBe('3.1.0');
      expect(document.info).toMatchObject({ title: 'Partner Finance Service API', version: '1.0.0' });
      expect(document.servers.length).toBeGreaterThan(0);
      expect(Object.values(document.components.securitySchemes)).toContainEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
      expect(document.components.schemas.ErrorCode?.enum).toEqual([...ERROR_CODES]);
      expect(document.components.schemas.ErrorEnvelope).toBeDefined();
      const text = answer.text;
      for (const code of ERROR_CODES) expect(text).toContain(`"${code}"`);

      const listAccounts = document.paths['/v1/accounts']?.get;
      expect(Object.keys(listAccounts?.responses ?? {}).sort()).toEqual(['200', '400', '401', '408', '429', '431', '500', '503']);
      expect(Object.keys(listAccounts?.responses['200']?.headers ?? {}).sort()).toEqual([
        'Cache-Control',
        'RateLimit',
        'RateLimit-Policy',
        'X-Content-Type-Options',
        'X-Next-Cursor',
        'X-Page-Size',
        'X-Request-Id',
      ]);
      expect(listAccounts?.parameters?.map((parameter) => parameter.name).sort()).toEqual(['cursor', 'limit']);
      const getAccount = document.paths['/v1/accounts/{accountId}']?.get;
      expect(getAccount?.responses['404']?.description).toContain('account_not_found');
      expect(getAccount?.responses['401']?.description).toMatch(/missing_api_key.*invalid_api_key.*authentication_failed/);
      expect(getAccount?.security).toEqual([{ bearer: [] }]);
      // Every operation documents X-Request-Id on every response, errors included.
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          for (const [status, response] of Object.entries(operation.responses)) {
            expect({ path, method, status, header: response.headers?.['X-Request-Id'] }).toEqual({ path, method, status, header: expect.anything() });
          }
        }
      }
    });

    it('serves Swagger UI at /docs', async () => {
      const answer = await e2e.get('/docs');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/text\/html/);
      expect(answer.text).toContain('swagger-ui');
    });
  });
});
