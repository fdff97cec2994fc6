import { randomBytes } from 'node:crypto';
import { apiKeyHint, generateApiKey, hashApiKey, newId } from '@pfs/contracts';
import { createPrismaClient } from '@pfs/persistence';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError, inPool, sleep, type Answer } from '../support/http-client';
import { startServices, type CreatedOrganization, type ServiceProcesses } from '../support/service-processes';
import { TestEffectsController } from '../support/test-effects.controller';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const queuePrefix = isolateQueues('gw-rate-limit');

const SMALL_LIMIT = 5;
/** A burst far over a budget, sent at once. */
const BURST = 60;
const BURST_LIMIT = 20;
/** API keys of this file's organization, one per budget its tests spend. */
const KEYS_NEEDED = 10;
/** Longer than the whole file takes: every budget the counting tests spend stays in one window, however busy the machine. */
const WINDOW_SECONDS = 600;
/** Short, so a window is quick to wait out; only the test of a window passing uses it. */
const SHORT_WINDOW_SECONDS = 2;

/*
 * The rate limit through real gateway replicas in this process sharing the real Redis:
 * two with a small budget in a window longer than the file, one with the same budget in a short
 * window, two with a budget per minute for bursts, and one with the defaults (1000 per 60 s).
 */
describe('rate limit per API key', () => {
  let services: ServiceProcesses;
  let smallA: TestGateway;
  let smallB: TestGateway;
  let short: TestGateway;
  let burstA: TestGateway;
  let burstB: TestGateway;
  let standard: TestGateway;
  let org: CreatedOrganization;
  let keys: string[] = [];

  beforeAll(async () => {
    services = await startServices(queuePrefix, ['organization-service']);
    const small = { RATE_LIMIT_PER_MINUTE: String(SMALL_LIMIT), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) };
    const burst = { RATE_LIMIT_PER_MINUTE: String(BURST_LIMIT) };
    [smallA, smallB, short, burstA, burstB, standard] = await Promise.all([
      startTestGateway({ env: small, controllers: [TestEffectsController] }),
      startTestGateway({ env: small, controllers: [TestEffectsController] }),
      startTestGateway({ env: { ...small, RATE_LIMIT_WINDOW_SECONDS: String(SHORT_WINDOW_SECONDS) }, controllers: [TestEffectsController] }),
      startTestGateway({ env: burst, controllers: [TestEffectsController] }),
      startTestGateway({ env: burst, controllers: [TestEffectsController] }),
      startTestGateway({ controllers: [TestEffectsController] }),
    ]);
    org = await services.createOrganization('rate limit');
    // Stored as the organization service issues them (one process of the operator CLI per key
    // would cost seconds each); the hash is the one the gateways compute.
    keys = Array.from({ length: KEYS_NEEDED }, () => generateApiKey('sandbox'));
    const prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-rate-limit-test' });
    try {
      await prisma.apiKey.createMany({
        data: keys.map((key) => ({
          id: newId('apiKey'),
          organizationId: org.organizationId,
          keyHash: hashApiKey(key, standard.config.apiKeyPepper),
          hint: apiKeyHint(key),
          environment: 'sandbox',
        })),
      });
    } finally {
      await prisma.$disconnect();
    }
  }, 120000);

  afterAll(async () => {
    await Promise.all([smallA?.close(), smallB?.close(), short?.close(), burstA?.close(), burstB?.close(), standard?.close()]);
    await services?.stop();
  }, 60000);

  /** A fresh key: a budget of its own. */
  const freshKey = async () => {
    const key = keys.pop();
    if (!key) throw new Error(`more than ${KEYS_NEEDED} fresh API keys asked for: raise KEYS_NEEDED`);
    return key;
  };
  const ping = (gateway: TestGateway, key: string) => gateway.request(`/v1/test-effects/ping-${randomBytes(3).toString('hex')}`, { key });

  const rateLimitOf = (answer: Answer) => {
    const match = /^"default";r=(\d+);t=(\d+)$/.exec(answer.headers.get('ratelimit') ?? '');
    expect(match).not.toBeNull();
    return { remaining: Number(match?.[1]), reset: Number(match?.[2]) };
  };

  /**
   * Pings until refused. Should the machine be slow enough for a window to end meanwhile, the next
   * starts over at the whole budget: each answer has one less left than the one before, or that;
   * and the refusal comes only once nothing is left.
   */
  async function spendUntilRefused(gateway: TestGateway, key: string): Promise<Answer> {
    let previous = SMALL_LIMIT;
    for (let sent = 0; sent < SMALL_LIMIT * 10; sent++) {
      const answer = await ping(gateway, key);
      if (answer.status === 429) {
        expect(previous).toBe(0);
        return answer;
      }
      expect(answer.status).toBe(200);
      const { remaining } = rateLimitOf(answer);
      expect([previous - 1, SMALL_LIMIT - 1]).toContain(remaining);
      previous = remaining;
    }
    throw new Error(`never refused in ${SMALL_LIMIT * 10} requests`);
  }

  it('counts every authenticated request and says so in RateLimit-Policy and RateLimit', async () => {
    const key = await freshKey();
    const remaining: number[] = [];
    for (let index = 0; index < SMALL_LIMIT; index++) {
      const answer = await ping(smallA, key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-policy')).toBe(`"default";q=${SMALL_LIMIT};w=${WINDOW_SECONDS}`);
      const { remaining: left, reset } = rateLimitOf(answer);
      remaining.push(left);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
  });

  it('refuses the request over the budget with 429 rate_limited, Retry-After and a message with the limit and the wait', async () => {
    const key = await freshKey();
    for (let index = 0; index < SMALL_LIMIT; index++) expect((await ping(smallA, key)).status).toBe(200);

    const refused = await ping(smallA, key);
    const error = expectError(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(error.message).toBe(`Rate limit exceeded: ${SMALL_LIMIT} requests per ${WINDOW_SECONDS} seconds per API key. Retry in ${retryAfter === 1 ? '1 second' : `${retryAfter} seconds`}.`);
    expect(rateLimitOf(refused)).toEqual({ remaining: 0, reset: retryAfter });
    expect(refused.headers.get('ratelimit-policy')).toBe(`"default";q=${SMALL_LIMIT};w=${WINDOW_SECONDS}`);
  });

  it('refuses an over-budget mutating request before it runs or claims its idempotency key', async () => {
    const key = await freshKey();
    for (let index = 0; index < SMALL_LIMIT; index++) expect((await ping(smallA, key)).status).toBe(200);
    const counter = `rl-${randomBytes(4).toString('hex')}`;
    const idempotencyKey = `key-${counter}`;
    const create = () =>
      smallA.request('/v1/test-effects', { method: 'POST', key, headers: { 'Idempotency-Key': idempotencyKey }, body: { counter, asset: 'USD', amount: '1' } });
    expectError(await create(), 429, 'rate_limited');

    // The same request with another key of the organization, which has a budget of its own: it
    // runs for the first time, so the refused one neither ran nor claimed the idempotency key.
    const other = await freshKey();
    const ran = await smallA.request('/v1/test-effects', { method: 'POST', key: other, headers: { 'Idempotency-Key': idempotencyKey }, body: { counter, asset: 'USD', amount: '1' } });
    expect(ran.status).toBe(201);
    expect(ran.headers.has('idempotent-replayed')).toBe(false);
    expect(ran.json()).toMatchObject({ count: 1 });
  });

  it('shares one budget between two gateway replicas', async () => {
    const key = await freshKey();
    const answers: Answer[] = [];
    for (let index = 0; index < SMALL_LIMIT; index++) answers.push(await ping(index % 2 ? smallB : smallA, key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((answer) => rateLimitOf(answer).remaining)).toEqual([4, 3, 2, 1, 0]);
    expectError(await ping(smallB, key), 429, 'rate_limited');
    expectError(await ping(smallA, key), 429, 'rate_limited');
  });

  it('gives the whole budget back once the window has passed', async () => {
    const key = await freshKey();
    const refused = await spendUntilRefused(short, key);
    await sleep(Number(refused.headers.get('retry-after')) * 1000 + 50);
    const back = await ping(short, key);
    expect(back.status).toBe(200);
    expect(rateLimitOf(back).remaining).toBe(SMALL_LIMIT - 1);
  });

  it('keeps a budget per API key, and neither counts nor labels unauthenticated and public requests', async () => {
    const spent = await freshKey();
    for (let index = 0; index <= SMALL_LIMIT; index++) await ping(smallA, spent);
    expect((await ping(smallA, spent)).status).toBe(429);

    // Another key of the same organization has its own budget.
    const other = await freshKey();
    expect((await ping(smallA, other)).status).toBe(200);

    const unauthenticated = await smallA.request('/v1/test-effects/ping');
    expectError(unauthenticated, 401, 'missing_api_key');
    expect(unauthenticated.headers.has('ratelimit')).toBe(false);
    const health = await smallA.request('/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.has('ratelimit')).toBe(false);
  });

  it('admits exactly the budget of a burst of concurrent requests on two replicas, each told what is left', async () => {
    const key = await freshKey();
    // A window far longer than the burst takes, so every request of it falls in one.
    const answers = await inPool(BURST, 25, (index) => ping(index % 2 ? burstB : burstA, key));
    const admitted = answers.filter((answer) => answer.status === 200);
    expect(admitted).toHaveLength(BURST_LIMIT);
    expect(admitted.map((answer) => rateLimitOf(answer).remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: BURST_LIMIT }, (_, index) => index));
    for (const refused of answers.filter((answer) => answer.status !== 200)) expectError(refused, 429, 'rate_limited');
  });

  it('runs with the default of 1000 requests per minute', async () => {
    const answer = await ping(standard, await freshKey());
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=1000;w=60');
    expect(rateLimitOf(answer).remaining).toBe(999);
  });
});
