import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { MAX_HEADER_BYTES, TIMEOUT_CHECK_INTERVAL_MS } from '../../src/http/client-error.handler';
import { MAX_JSON_DEPTH } from '../../src/http/json-body.parser';
import { expectError, REQUEST_ID, type Answer, type RequestOptions } from '../support/http-client';
import { rawExchange, type RawAnswer } from '../support/raw-http';
import { startServices, type CreatedOrganization, type ServiceProcesses } from '../support/service-processes';
import { TestEffectsController } from '../support/test-effects.controller';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const queuePrefix = isolateQueues('gw-input-hardening');

// Short timeouts for this file only, so the slow-client cases take seconds; every bound below is
// derived from these values, never from how fast this machine is.
const REQUEST_TIMEOUT_MS = 2500;
const HEADERS_TIMEOUT_MS = 1500;
const KEEP_ALIVE_TIMEOUT_MS = 1500;
/** Room for a loaded machine on top of Node's timeout check interval. */
const SLACK_MS = TIMEOUT_CHECK_INTERVAL_MS + 4000;

/** JavaScript's built-in object properties: data like any other name, so unknown. */
const BUILT_IN_NAMES = [
  'toString',
  'valueOf',
  'hasOwnProperty',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
];

/*
 * Edges a black-box probe found, each answered at the gateway so every route
 * inherits it: a gateway in this process with the organization service as a real process, on
 * real routes and the test-only counting route POST /v1/test-effects. A refused request must
 * answer 4xx in the envelope and change nothing.
 */
describe('bad input never reaches a 500 and never changes anything', () => {
  let services: ServiceProcesses;
  let gateway: TestGateway;
  let org: CreatedOrganization;
  let prisma: PrismaClient;

  beforeAll(async () => {
    services = await startServices(queuePrefix, ['organization-service']);
    gateway = await startTestGateway({
      controllers: [TestEffectsController],
      env: {
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
      },
    });
    org = await services.createOrganization('hardening');
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-hardening-test' });
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await gateway?.close();
    await services?.stop();
  }, 60000);

  const counterName = () => `h-${randomBytes(6).toString('hex')}`;
  const post = (path: string, body: unknown, options: RequestOptions = {}) =>
    gateway.request(path, { method: 'POST', key: org.apiKey, body, ...options, headers: { 'content-type': 'application/json', ...options.headers } });
  const effects = async (counter: string) => (await gateway.request(`/v1/test-effects/${counter}`, { key: org.apiKey })).json<{ count: number }>().count;
  const clients = () => prisma.organization.count({ where: { parentOrganizationId: org.organizationId } });
  const invites = () => prisma.referralInvite.count({ where: { referrerOrganizationId: org.organizationId } });
  const organizationBody = (name: string) => `{"name":"${name}","entityType":"BUSINESS","country":"DE"}`;
  const raw = (steps: Parameters<typeof rawExchange>[1]) => rawExchange(gateway.baseUrl, steps);
  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
  const host = () => `Host: ${new URL(gateway.baseUrl).host}`;

  /** The envelope of an answer read off a raw socket, with its request id and security headers. */
  const expectRawError = (answer: RawAnswer, status: number, code: string) => {
    expect({ status: answer.status, contentType: answer.headers['content-type'] }).toEqual({ status, contentType: 'application/json; charset=utf-8' });
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toMatch(REQUEST_ID);
    expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String), requestId } });
    expect({ cache: answer.headers['cache-control'], sniff: answer.headers['x-content-type-options'] }).toEqual({ cache: 'no-store', sniff: 'nosniff' });
  };

  describe('nesting depth', () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

    it('answers JSON nested 4,000 levels deep with 400 on every kind of route, in the route code', async () => {
      const deep = `{"counter":"x","asset":"USD","amount":"1","note":${'['.repeat(4000)}${']'.repeat(4000)}}`;
      expect(Buffer.byteLength(deep)).toBeLessThan(gateway.config.bodyLimitBytes);
      const before = await clients();
      for (const [path, code] of [
        ['/v1/test-effects', 'invalid_request'],
        ['/v1/organizations', 'invalid_request'],
        ['/v1/referral-invites', 'validation_error'],
      ] as const) {
        const answer = await post(path, deep);
        expect({ path, message: expectError(answer, 400, code).message }).toEqual({
          path,
          message: `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`,
        });
      }
      expectError(await post('/v1/test-effects', nested(4000)), 400, 'invalid_request');
      expect(await clients()).toBe(before);
    });

    it(`reads a body nested exactly ${MAX_JSON_DEPTH} levels and refuses one level more`, async () => {
      // Parsed, then refused for its content (an unknown field), not its depth.
      expect(expectError(await post('/v1/test-effects', nested(MAX_JSON_DEPTH)), 400, 'invalid_request').message).toMatch(/^a: /);
      expect(expectError(await post('/v1/test-effects', nested(MAX_JSON_DEPTH + 1)), 400, 'invalid_request').message).toMatch(/deeper than/);
      // Brackets inside strings are text, not nesting.
      const counter = counterName();
      const answer = await post('/v1/test-effects', JSON.stringify({ counter, asset: 'USD', amount: '1', note: { text: '[{'.repeat(500) } }));
      expect(answer.status).toBe(201);
    });
  });

  describe('ill-formed Unicode and invalid UTF-8', () => {
    it('refuses a lone surrogate in POST /v1/organizations, naming the field, and creates nothing', async () => {
      const before = await clients();
      const answer = await post('/v1/organizations', organizationBody('x\\ud800'));
      expect(expectError(answer, 400, 'invalid_request').message).toBe('name: must be well-formed Unicode (a lone UTF-16 surrogate such as \\ud800 is not a character)');
      const low = await post('/v1/organizations', organizationBody('\\udc00x'));
      expect(expectError(low, 400, 'invalid_request').message).toMatch(/^name: must be well-formed Unicode/);
      expect(await clients()).toBe(before);
      // A surrogate pair is one character, and is stored as sent.
      const pair = await post('/v1/organizations', organizationBody('Emoji \\ud83d\\ude00 GmbH'));
      expect(pair.status).toBe(201);
      expect(pair.json<{ name: string }>().name).toBe('Emoji 😀 GmbH');
    });

    it('refuses a lone surrogate on POST /v1/referral-invites (validation_error) instead of storing U+FFFD', async () => {
      const before = await invites();
      const answer = await post('/v1/referral-invites', `{"email":"ada\\udc00-${randomUUID().slice(0, 8)}@example.com"}`);
      expect(expectError(answer, 400, 'validation_error').message).toMatch(/^email: must be well-formed Unicode/);
      expect(await invites()).toBe(before);
    });

    it('refuses a lone surrogate on the sandbox verification and sign-up routes, naming the field', async () => {
      const verification = await post(`/v1/sandbox/organizations/${org.organizationId}/verification`, '{"status":"ON_HOLD","reason":"x\\ud800"}');
      expect(expectError(verification, 400, 'invalid_request').message).toMatch(/^reason: must be well-formed Unicode/);
      const email = `accept-${randomUUID().slice(0, 8)}@example.com`;
      const invite = await post('/v1/referral-invites', { email });
      expect(invite.status).toBe(201);
      const { referralInviteId } = invite.json<{ referralInviteId: string }>();
      const referred = () => prisma.organization.count({ where: { referrerOrganizationId: org.organizationId } });
      const before = await referred();
      const accept = await post(`/v1/sandbox/referral-invites/${referralInviteId}/accept`, `{"email":"${email}","name":"x\\ud800"}`);
      expect(expectError(accept, 400, 'invalid_request').message).toMatch(/^name: must be well-formed Unicode/);
      expect(await referred()).toBe(before);
    });

    it('refuses a surrogate in a key, and bytes that are not UTF-8', async () => {
      expect(expectError(await post('/v1/test-effects', '{"\\ud800":1}'), 400, 'invalid_request').message).toMatch(/: must be well-formed Unicode/);
      const counter = counterName();
      const latin1 = Buffer.concat([Buffer.from(`{"counter":"${counter}","asset":"USD","amount":"1","note":{"text":"caf`), Buffer.from([0xe9]), Buffer.from('"}}')]);
      expect(expectError(await post('/v1/test-effects', new Uint8Array(latin1)), 400, 'invalid_request').message).toBe('The request body is not valid UTF-8.');
      // A UTF-8 encoded surrogate (ED A0 80) is not UTF-8 either.
      const encodedSurrogate = Buffer.concat([Buffer.from(`{"counter":"${counter}","asset":"USD","amount":"1","note":{"text":"`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}')]);
      expectError(await post('/v1/test-effects', new Uint8Array(encodedSurrogate)), 400, 'invalid_request');
      expect(await effects(counter)).toBe(0);
    });

    it('refuses query parameters that are not percent-encoded UTF-8, naming them', async () => {
      const answer = await gateway.request('/v1/organizations?limit=%ED%A0%80', { key: org.apiKey });
      expect(expectError(answer, 400, 'invalid_request').message).toBe('limit: must be percent-encoded UTF-8');
      expectError(await gateway.request('/v1/organizations?limit=%FF', { key: org.apiKey }), 400, 'invalid_request');
    });
  });

  describe('the names of built-in object properties are data', () => {
    it.each(BUILT_IN_NAMES)('refuses a body field named %s, and nothing happens', async (name) => {
      const counter = counterName();
      const answer = await post('/v1/test-effects', `{"counter":"${counter}","asset":"USD","amount":"1","${name}":1}`);
      expect(expectError(answer, 400, 'invalid_request').message).toBe(`${name}: is not a recognised parameter`);
      const nested = await post('/v1/test-effects', `{"counter":"${counter}","asset":"USD","amount":"1","note":{"text":"x","${name}":"y"}}`);
      expect(expectError(nested, 400, 'invalid_request').message).toBe(`note.${name}: is not a recognised parameter`);
      expect(await effects(counter)).toBe(0);
    });

    it('refuses them on a real route, which then creates nothing', async () => {
      const before = await clients();
      for (const name of BUILT_IN_NAMES) {
        const answer = await post('/v1/organizations', `{"name":"Proto ${name}","entityType":"BUSINESS","country":"DE","${name}":{}}`);
        expect(expectError(answer, 400, 'invalid_request').message).toBe(`${name}: is not a recognised parameter`);
      }
      expectError(await post('/v1/organizations', '{"name":"Proto","entityType":"BUSINESS","country":"DE","__proto__":{}}'), 400, 'invalid_request');
      expect(await clients()).toBe(before);
    });

    it.each([...BUILT_IN_NAMES, '__proto__'])('refuses the query parameter %s', async (name) => {
      const answer = await gateway.request(`/v1/organizations?${name}=1`, { key: org.apiKey });
      expect(expectError(answer, 400, 'invalid_request').message).toBe(`${name}: is not a recognised parameter`);
      expectError(await gateway.request(`/v1/test-effects/${counterName()}?${name}=1`, { key: org.apiKey }), 400, 'invalid_request');
    });
  });

  describe('only JSON bodies', () => {
    const effect = (counter: string) => ({ counter, asset: 'USD', amount: '1' });

    it.each([
      ['application/x-www-form-urlencoded', (counter: string) => new URLSearchParams(effect(counter)).toString()],
      ['text/plain', (counter: string) => JSON.stringify(effect(counter))],
      ['multipart/form-data; boundary=x', (counter: string) => `--x\r\nContent-Disposition: form-data; name="counter"\r\n\r\n${counter}\r\n--x--\r\n`],
      ['application/xml', (counter: string) => `<effect><counter>${counter}</counter></effect>`],
      ['application/json; charset=iso-8859-1', (counter: string) => JSON.stringify(effect(counter))],
    ])('refuses %s with the envelope, and nothing happens', async (contentType, body) => {
      const counter = counterName();
      const answer = await post('/v1/test-effects', body(counter), { headers: { 'content-type': contentType } });
      expect(expectError(answer, 400, 'invalid_request').message).toMatch(/^Content-Type must be application\/json/);
      const strict = await post('/v1/referral-invites', body(counter), { headers: { 'content-type': contentType } });
      expectError(strict, 400, 'validation_error');
      expect(await effects(counter)).toBe(0);
    });

    it('refuses a form-encoded POST /v1/organizations, which creates nothing', async () => {
      const before = await clients();
      const form = new URLSearchParams({ name: 'Form Ltd', entityType: 'BUSINESS', country: 'DE' }).toString();
      expectError(await post('/v1/organizations', form, { headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 400, 'invalid_request');
      expect(await clients()).toBe(before);
    });

    it('refuses a Content-Encoding it does not decode, and still reads an explicit identity', async () => {
      const counter = counterName();
      const body = JSON.stringify(effect(counter));
      const gzip = await post('/v1/test-effects', new Uint8Array(gzipSync(body)), { headers: { 'content-encoding': 'gzip' } });
      expect(expectError(gzip, 400, 'invalid_request').message).toBe('Content-Encoding is not supported: send the body uncompressed.');
      expectError(await post('/v1/test-effects', body, { headers: { 'content-encoding': 'br' } }), 400, 'invalid_request');
      expect(await effects(counter)).toBe(0);
      expect((await post('/v1/test-effects', body, { headers: { 'content-encoding': 'identity' } })).status).toBe(201);
    });
  });

  describe('errors of the HTTP parser are answered in the envelope', () => {
    it.each([
      ['a malformed request line', [head(['GARBAGE'])]],
      ['an HTTP version it does not speak', [head(['GET /healthz HTTP/9.9', 'Host: x'])]],
      ['bad chunking', [head(['POST /v1/test-effects HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Transfer-Encoding: chunked']) + 'zz\r\n{}\r\n0\r\n\r\n']],
      ['Content-Length together with Transfer-Encoding', [head(['POST /v1/test-effects HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 2', 'Transfer-Encoding: chunked']) + '2\r\n{}\r\n0\r\n\r\n']],
      ['two Content-Length headers that disagree', [head(['POST /v1/test-effects HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 2', 'Content-Length: 3']) + '{}']],
    ])('answers %s with 400 invalid_request, a request id and the security headers, then closes', async (_label, sends) => {
      const answer = await raw(sends.map((send) => ({ send })));
      expectRawError(answer, 400, 'invalid_request');
      expect(answer.headers.connection).toBe('close');
    });

    it('answers headers over the limit with 431', async () => {
      const answer = await raw([{ send: head(['GET /healthz HTTP/1.1', host(), `X-Filler: ${'a'.repeat(MAX_HEADER_BYTES + 1024)}`]) }]);
      expectRawError(answer, 431, 'invalid_request');
    });

    it('logs one access line for what the parser refused, with the request id the client got', async () => {
      const answer = await raw([{ send: head(['GARBAGE']) }]);
      const requestId = answer.headers['x-request-id'];
      expect(gateway.logs.lines().filter((line) => line.requestId === requestId)).toEqual([
        expect.objectContaining({ msg: 'request completed', status: 400, route: '(unparsed)' }),
      ]);
    });
  });

  describe('slow clients are cut off', () => {
    it(`answers headers not complete within HEADERS_TIMEOUT_MS (${HEADERS_TIMEOUT_MS} ms) with 408 and closes`, async () => {
      const answer = await raw([{ send: `GET /healthz HTTP/1.1\r\n${host()}\r\nX-Slow: ` }]);
      expectRawError(answer, 408, 'invalid_request');
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
      expect(answer.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
    });

    it(`answers a body that stops arriving within REQUEST_TIMEOUT_MS (${REQUEST_TIMEOUT_MS} ms) with 408, and nothing happens`, async () => {
      const counter = counterName();
      const body = JSON.stringify({ counter, asset: 'USD', amount: '1' });
      const answer = await raw([
        {
          send: head(['POST /v1/test-effects HTTP/1.1', host(), `Authorization: Bearer ${org.apiKey}`, 'Content-Type: application/json', `Content-Length: ${body.length + 50}`]) + body,
        },
      ]);
      expectRawError(answer, 408, 'invalid_request');
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
      expect(await effects(counter)).toBe(0);
    });

    it(`closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS (${KEEP_ALIVE_TIMEOUT_MS} ms)`, async () => {
      const answer = await raw([{ send: head(['GET /healthz HTTP/1.1', host(), 'Connection: keep-alive']) }]);
      expect(answer.status).toBe(200);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 100);
      expect(answer.closedAfterMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + SLACK_MS);
    });
  });

  describe('Authorization', () => {
    it('answers two Authorization headers with invalid_api_key, whichever comes first, and nothing happens', async () => {
      const counter = counterName();
      const body = JSON.stringify({ counter, asset: 'USD', amount: '1' });
      for (const keys of [
        [org.apiKey, 'sk_test_not_a_key'],
        ['sk_test_not_a_key', org.apiKey],
        [org.apiKey, org.apiKey],
      ]) {
        const answer = await raw([
          {
            send:
              head([
                'POST /v1/test-effects HTTP/1.1',
                host(),
                ...keys.map((key) => `Authorization: Bearer ${key}`),
                'Content-Type: application/json',
                `Content-Length: ${body.length}`,
                'Connection: close',
              ]) + body,
          },
        ]);
        expectRawError(answer, 401, 'invalid_api_key');
        expect(JSON.parse(answer.body).error.message).toBe('Send exactly one Authorization header: "Authorization: Bearer <api_key>".');
      }
      expect(await effects(counter)).toBe(0);
    });
  });

  describe('Cache-Control: no-store and X-Content-Type-Options: nosniff', () => {
    const expectHeaders = (where: string, answer: Answer) =>
      expect({ where, cache: answer.headers.get('cache-control'), sniff: answer.headers.get('x-content-type-options') }).toEqual({
        where,
        cache: 'no-store',
        sniff: 'nosniff',
      });

    it('are on every response: successes, errors, unknown routes, framework errors and the documentation', async () => {
      expectHeaders('201', await post('/v1/test-effects', { counter: counterName(), asset: 'USD', amount: '1' }));
      expectHeaders('200 list', await gateway.request('/v1/organizations', { key: org.apiKey }));
      expectHeaders('400', await post('/v1/test-effects', '{'));
      expectHeaders('401', await gateway.request('/v1/organizations'));
      expectHeaders('404', await gateway.request('/v1/nothing-here'));
      expectHeaders('bad URL', await gateway.request('/v1/%E0%A4%A'));
      expectHeaders('healthz', await gateway.request('/healthz'));
      expectHeaders('openapi', await gateway.request('/openapi.json'));
    });

    it('are on the sandbox sign-up, which returns a fresh API key', async () => {
      const email = `signup-${randomUUID().slice(0, 8)}@example.com`;
      const invite = await post('/v1/referral-invites', { email });
      const { referralInviteId } = invite.json<{ referralInviteId: string }>();
      const signUp = await post(`/v1/sandbox/referral-invites/${referralInviteId}/accept`, { email, name: 'Signed Up Ltd' });
      expect(signUp.status).toBe(201);
      expect(signUp.json<{ apiKey: string }>().apiKey).toMatch(/^sk_test_/);
      expectHeaders('sign-up', signUp);
    });
  });
});
