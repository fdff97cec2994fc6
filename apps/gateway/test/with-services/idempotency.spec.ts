import { randomBytes, randomUUID } from 'node:crypto';
import { newId } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { IdempotencyStore } from '../../src/idempotency/idempotency.store';
import { requestFingerprint } from '../../src/idempotency/request-fingerprint';
import { expectError, sleep, type Answer } from '../support/http-client';
import { startServices, type CreatedOrganization, type ServiceProcesses } from '../support/service-processes';
import { TestEffectsController, type TestEffect } from '../support/test-effects.controller';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const queuePrefix = isolateQueues('gw-idempotency');

/**
 * Short, so a lapsed claim is quick to wait for; renewals (every third of it) keep live ones.
 * Long enough that a busy machine (a stalled event loop of over a second) still renews in time.
 */
const LEASE_MS = 2400;

/*
 * Idempotency through two real gateway replicas (in this process, on real sockets) sharing the
 * real Redis, authenticating against the organization service running as a process. The
 * test-only POST /v1/test-effects counts its effects with a Redis INCR.
 */
describe('Idempotency-Key on POST, PUT and PATCH', () => {
  let services: ServiceProcesses;
  let replicaA: TestGateway;
  let replicaB: TestGateway;
  let alpha: CreatedOrganization;
  let beta: CreatedOrganization;
  let prisma: PrismaClient;

  beforeAll(async () => {
    services = await startServices(queuePrefix, ['organization-service']);
    const env = { IDEMPOTENCY_LEASE_MS: String(LEASE_MS) };
    [replicaA, replicaB] = await Promise.all([
      startTestGateway({ env, controllers: [TestEffectsController] }),
      startTestGateway({ env, controllers: [TestEffectsController] }),
    ]);
    [alpha, beta] = await Promise.all([services.createOrganization('idem alpha'), services.createOrganization('idem beta')]);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-idempotency-test' });
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await Promise.all([replicaA?.close(), replicaB?.close()]);
    await services?.stop();
  }, 60000);

  const counterName = () => `c-${randomBytes(6).toString('hex')}`;
  const effectBody = (counter: string, extra: Record<string, unknown> = {}) => ({ counter, asset: 'USDC', amount: '10.5', ...extra });

  const post = (gateway: TestGateway, body: unknown, options: { key?: string; org?: CreatedOrganization; headers?: Record<string, string> } = {}) =>
    gateway.request('/v1/test-effects', {
      method: 'POST',
      key: (options.org ?? alpha).apiKey,
      headers: { ...(options.key === undefined ? {} : { 'Idempotency-Key': options.key }), ...options.headers },
      body,
    });

  const effects = async (counter: string, org: CreatedOrganization = alpha) =>
    (await replicaA.request(`/v1/test-effects/${counter}`, { key: org.apiKey })).json<{ count: number }>().count;

  const expectFresh = (answer: Answer, status = 201) => {
    expect({ status: answer.status, replayed: answer.headers.get('idempotent-replayed') }).toEqual({ status, replayed: null });
  };
  const expectReplay = (answer: Answer, status: number) => {
    expect({ status: answer.status, replayed: answer.headers.get('idempotent-replayed') }).toEqual({ status, replayed: 'true' });
  };

  it('runs 50 concurrent identical requests on two replicas exactly once; the others are replays or in flight', async () => {
    const counter = counterName();
    const key = randomUUID();
    const body = effectBody(counter, { delayMs: 150 });

    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => post(index % 2 ? replicaB : replicaA, body, { key })));

    expect(await effects(counter)).toBe(1);
    const fresh = answers.filter((answer) => answer.status === 201 && !answer.headers.has('idempotent-replayed'));
    const replays = answers.filter((answer) => answer.status === 201 && answer.headers.get('idempotent-replayed') === 'true');
    const inFlight = answers.filter((answer) => answer.status === 409);
    expect(fresh).toHaveLength(1);
    expect(fresh.length + replays.length + inFlight.length).toBe(50);
    for (const answer of inFlight) expectError(answer, 409, 'idempotency_request_in_flight');
    const first = fresh[0]?.json<TestEffect>();
    expect(first).toEqual({ object: 'test_effect', counter, count: 1, organizationId: alpha.organizationId, amount: '10.5' });
    for (const replay of replays) {
      expect(replay.json()).toEqual(first);
      expect(replay.headers.get('original-request')).toBe(fresh[0]?.headers.get('x-request-id'));
    }

    // Once the first has completed, every retry, on either replica, is the stored response.
    for (const replica of [replicaA, replicaB]) {
      const retry = await post(replica, body, { key });
      expectReplay(retry, 201);
      expect(retry.json()).toEqual(first);
      expect(retry.headers.get('x-request-id')).not.toBe(fresh[0]?.headers.get('x-request-id'));
    }
    expect(await effects(counter)).toBe(1);
  });

  it('treats key order and whitespace in the body as the same request', async () => {
    const counter = counterName();
    const key = randomUUID();
    expectFresh(await post(replicaA, `{"counter":"${counter}","asset":"USDC","amount":"1"}`, { key, headers: { 'content-type': 'application/json' } }));
    const reordered = await post(replicaB, `{ "amount": "1",\n "asset": "USDC", "counter": "${counter}" }`, {
      key,
      headers: { 'content-type': 'application/json' },
    });
    expectReplay(reordered, 201);
    expect(await effects(counter)).toBe(1);
  });

  it('answers 422 idempotency_key_in_use for the same key with another body, path or method, and runs nothing', async () => {
    const counter = counterName();
    const key = randomUUID();
    expectFresh(await post(replicaA, effectBody(counter), { key }));

    const otherBody = await post(replicaB, effectBody(counter, { amount: '11' }), { key });
    expect(expectError(otherBody, 422, 'idempotency_key_in_use').message).toMatch(/different request/);
    const headers = { 'Idempotency-Key': key };
    for (const [method, path] of [
      ['PUT', '/v1/test-effects/one'],
      ['PATCH', '/v1/test-effects/one'],
      ['POST', '/v1/test-effects?x=1'],
    ] as const) {
      const answer = await replicaA.request(path, { method, key: alpha.apiKey, headers, body: effectBody(counter) });
      expectError(answer, 422, 'idempotency_key_in_use');
    }
    expect(await effects(counter)).toBe(1);
  });

  it('keeps the keys of different organizations apart', async () => {
    const counter = counterName();
    const key = randomUUID();
    const alphaAnswer = await post(replicaA, effectBody(counter), { key, org: alpha });
    const betaAnswer = await post(replicaB, effectBody(counter), { key, org: beta });
    expectFresh(alphaAnswer);
    expectFresh(betaAnswer);
    expect(alphaAnswer.json<TestEffect>().organizationId).toBe(alpha.organizationId);
    expect(betaAnswer.json<TestEffect>().organizationId).toBe(beta.organizationId);
    // Both ran: the shared counter (one Redis key across organizations) moved twice.
    expect(await effects(counter)).toBe(2);
    expectReplay(await post(replicaA, effectBody(counter), { key, org: beta }), 201);
  });

  it('keeps a key used for a client apart from the same key used for the caller itself', async () => {
    const client = newId('organization');
    const now = new Date();
    await prisma.organization.create({
      data: {
        id: client,
        name: `Idempotency client ${randomBytes(4).toString('hex')}`,
        verificationStatus: 'PENDING',
        parentOrganizationId: alpha.organizationId,
        primaryAccountId: newId('account'),
        createdAt: now,
        updatedAt: now,
      },
    });
    const counter = counterName();
    const key = randomUUID();
    const own = await post(replicaA, effectBody(counter), { key });
    const forClient = await post(replicaA, effectBody(counter), { key, headers: { 'Service-On-Behalf-Of': client } });
    expectFresh(own);
    expectFresh(forClient);
    expect(forClient.json<TestEffect>().organizationId).toBe(client);
    expectReplay(await post(replicaB, effectBody(counter), { key, headers: { 'Service-On-Behalf-Of': client } }), 201);
    expect(await effects(counter)).toBe(2);
  });

  it('releases the key on a 5xx, so the retry runs, and stores what the retry answers', async () => {
    const counter = counterName();
    const key = randomUUID();
    const body = effectBody(counter, { failWhileAtMost: 1 });

    expectError(await post(replicaA, body, { key }), 500, 'internal_error');
    const retry = await post(replicaB, body, { key });
    expectFresh(retry);
    expect(retry.json<TestEffect>().count).toBe(2);
    const again = await post(replicaA, body, { key });
    expectReplay(again, 201);
    expect(again.json<TestEffect>().count).toBe(2);
    expect(await effects(counter)).toBe(2);
  });

  it('stores a 4xx answer like a success and replays it under the new request id', async () => {
    const counter = counterName();
    const key = randomUUID();
    const body = effectBody(counter, { answer: 'insufficient_funds' });

    const first = expectError(await post(replicaA, body, { key }), 422, 'insufficient_funds');
    const replay = await post(replicaB, body, { key });
    expectReplay(replay, 422);
    // expectError checks that the body's requestId is this response's own X-Request-Id.
    const replayed = expectError(replay, 422, 'insufficient_funds');
    expect(replayed.message).toBe(first.message);
    expect(replayed.requestId).not.toBe(first.requestId);
    expect(replay.headers.get('original-request')).toBe(first.requestId);
    expect(await effects(counter)).toBe(1);
  });

  it('does not keep a request rejected as malformed, so the corrected request runs under the same key', async () => {
    const counter = counterName();
    const key = randomUUID();
    expectError(await post(replicaA, effectBody(counter, { amount: 10 }), { key }), 400, 'invalid_request');
    expectFresh(await post(replicaA, effectBody(counter), { key }));
    expect(await effects(counter)).toBe(1);
  });

  it('lets a retry run once the lease of a replica that died mid-request has lapsed', async () => {
    const counter = counterName();
    const key = randomUUID();
    const body = effectBody(counter);
    // What a replica writes when it starts the request; it then crashed and never stored
    // nor released anything, and no one renews the lease.
    const crashed = await replicaB.app
      .get(IdempotencyStore)
      .claim({ organizationId: alpha.organizationId, onBehalfOf: null, key }, requestFingerprint('POST', '/v1/test-effects', body), newId('request'));
    expect(crashed.kind).toBe('claimed');

    expectError(await post(replicaA, body, { key }), 409, 'idempotency_request_in_flight');
    expect(await effects(counter)).toBe(0);

    await sleep(LEASE_MS + 100);
    expectFresh(await post(replicaA, body, { key }));
    expectReplay(await post(replicaB, body, { key }), 201);
    expect(await effects(counter)).toBe(1);
  });

  it('renews the lease while a request runs longer than it, so no second request starts meanwhile', async () => {
    const counter = counterName();
    const key = randomUUID();
    // Asked again well past one lease and well before the request ends (the longest delay the route takes).
    const body = effectBody(counter, { delayMs: 5000 });
    const slow = post(replicaA, body, { key });
    await sleep(LEASE_MS * 1.5);
    expectError(await post(replicaB, body, { key }), 409, 'idempotency_request_in_flight');
    expectFresh(await slow);
    expectReplay(await post(replicaB, body, { key }), 201);
    expect(await effects(counter)).toBe(1);
  });

  it('runs every request without the header, and applies the key to PUT and PATCH too', async () => {
    const counter = counterName();
    expectFresh(await post(replicaA, effectBody(counter)));
    expectFresh(await post(replicaA, effectBody(counter)));
    expect(await effects(counter)).toBe(2);

    for (const method of ['PUT', 'PATCH']) {
      const key = randomUUID();
      const send = () => replicaA.request('/v1/test-effects/one', { method, key: alpha.apiKey, headers: { 'Idempotency-Key': key }, body: effectBody(counter) });
      expectFresh(await send(), 200);
      expectReplay(await send(), 200);
    }
    expect(await effects(counter)).toBe(4);
  });

  it('accepts keys of up to 255 characters and refuses longer or empty ones with 400 naming the header', async () => {
    const counter = counterName();
    expectFresh(await post(replicaA, effectBody(counter), { key: 'k'.repeat(255) }));
    for (const key of ['k'.repeat(256), '']) {
      const answer = await post(replicaA, effectBody(counter), { key });
      expect(expectError(answer, 400, 'invalid_request').message).toBe('Idempotency-Key: must be between 1 and 255 characters');
    }
    expect(await effects(counter)).toBe(1);
  });
});
