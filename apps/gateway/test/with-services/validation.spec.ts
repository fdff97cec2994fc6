import { randomBytes } from 'node:crypto';
import { newId } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError, type RequestOptions } from '../support/http-client';
import { startServices, type CreatedOrganization, type ServiceProcesses } from '../support/service-processes';
import { TestEffectsController } from '../support/test-effects.controller';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const queuePrefix = isolateQueues('gw-validation');

const AMOUNT_FORM = 'amount: must be a decimal string in major units such as "10.50": digits with an optional fraction, no sign or exponent';

/*
 * Request validation through a gateway in this process with its default body limit (1 MiB),
 * on the test-only POST /v1/test-effects (answers `invalid_request`) and POST
 * /v1/test-effects/strict (declared to answer `validation_error`). Every refused request
 * must leave the effect counter untouched.
 */
describe('request validation', () => {
  let services: ServiceProcesses;
  let gateway: TestGateway;
  let org: CreatedOrganization;
  let client: string;
  let prisma: PrismaClient;

  beforeAll(async () => {
    services = await startServices(queuePrefix, ['organization-service']);
    gateway = await startTestGateway({ controllers: [TestEffectsController] });
    org = await services.createOrganization('validation');
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-validation-test' });
    client = newId('organization');
    const now = new Date();
    await prisma.organization.create({
      data: {
        id: client,
        name: `Validation client ${randomBytes(4).toString('hex')}`,
        verificationStatus: 'PENDING',
        parentOrganizationId: org.organizationId,
        primaryAccountId: newId('account'),
        createdAt: now,
        updatedAt: now,
      },
    });
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await gateway?.close();
    await services?.stop();
  }, 60000);

  const counterName = () => `v-${randomBytes(6).toString('hex')}`;
  const post = (path: string, body: unknown, options: RequestOptions = {}) =>
    gateway.request(path, { method: 'POST', key: org.apiKey, body, ...options, headers: { ...options.headers } });
  const strict = (body: unknown, headers: Record<string, string> = {}) =>
    post('/v1/test-effects/strict', body, { headers: { 'Service-On-Behalf-Of': client, ...headers } });
  const effects = async (counter: string) => (await gateway.request(`/v1/test-effects/${counter}`, { key: org.apiKey })).json<{ count: number }>().count;

  it('accepts a valid body', async () => {
    const counter = counterName();
    const answer = await post('/v1/test-effects', { counter, asset: 'ETH', amount: '0.000000000000000001', note: { text: 'ok' } });
    expect(answer.status).toBe(201);
    expect(await effects(counter)).toBe(1);
  });

  it('names every offending field, unknown and nested ones included', async () => {
    const counter = counterName();
    const unknown = await post('/v1/test-effects', { counter, asset: 'USD', amount: '1', amuont: '1' });
    expect(expectError(unknown, 400, 'invalid_request').message).toBe('amuont: is not a recognised parameter');
    const nested = await post('/v1/test-effects', { counter, asset: 'USD', amount: '1', note: { text: 'x', extra: true } });
    expect(expectError(nested, 400, 'invalid_request').message).toBe('note.extra: is not a recognised parameter');
    const several = await post('/v1/test-effects', { asset: 'DOGE', amount: 5 });
    expect(expectError(several, 400, 'invalid_request').message).toBe(
      `counter: must be 1–64 lowercase letters, digits or dashes; asset: must be one of USD, EUR, USDC, USDT, BTC, ETH; ${AMOUNT_FORM}`,
    );
    expect(await effects(counter)).toBe(0);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"text"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('refuses a body that is %s', async (_label, body) => {
    const answer = await post('/v1/test-effects', body, { headers: { 'content-type': 'application/json' } });
    expect(expectError(answer, 400, 'invalid_request').message).toBe('The request body must be a JSON object.');
  });

  it('answers malformed JSON, a wrong content type and a body over 1 MiB with the 400 envelope, without running anything', async () => {
    const counter = counterName();
    const malformed = await post('/v1/test-effects', `{"counter":"${counter}",`, { headers: { 'content-type': 'application/json' } });
    expect(expectError(malformed, 400, 'invalid_request').message).toBe('The request body is not valid JSON.');
    const csv = await post('/v1/test-effects', 'counter\nx', { headers: { 'content-type': 'text/csv' } });
    expect(expectError(csv, 400, 'invalid_request').message).toBe('Content-Type must be application/json.');
    const large = await post('/v1/test-effects', { counter, asset: 'USD', amount: '1', note: { text: 'x'.repeat(1024 * 1024) } });
    expect(expectError(large, 400, 'invalid_request').message).toBe('The request body is too large.');
    expect(await effects(counter)).toBe(0);

    // Just under the limit is read (and then refused for its content, not its size).
    const underLimit = await post('/v1/test-effects', { counter, asset: 'USD', amount: '1', note: { text: 'x'.repeat(1000 * 1000) } });
    expect(underLimit.status).toBe(201);
  });

  it('answers with validation_error on a route that declares it, for every kind of malformed request', async () => {
    const counter = counterName();
    const field = await strict({ counter, asset: 'USD', amount: '1.001' });
    expect(expectError(field, 400, 'validation_error').message).toBe('amount: must have at most 2 decimal places for USD');
    const unknown = await strict({ counter, asset: 'USD', amount: '1', extra: 1 });
    expect(expectError(unknown, 400, 'validation_error').message).toBe('extra: is not a recognised parameter');
    const malformed = await strict('{', { 'content-type': 'application/json' });
    expect(expectError(malformed, 400, 'validation_error').message).toBe('The request body is not valid JSON.');
    const large = await strict({ counter, asset: 'USD', amount: '1', note: { text: 'x'.repeat(1024 * 1024) } });
    expect(expectError(large, 400, 'validation_error').message).toBe('The request body is too large.');
    const longKey = await strict({ counter, asset: 'USD', amount: '1' }, { 'Idempotency-Key': 'k'.repeat(256) });
    expectError(longKey, 400, 'validation_error');
    expect(await effects(counter)).toBe(0);

    expect((await strict({ counter, asset: 'USD', amount: '1' })).status).toBe(201);
  });
});
