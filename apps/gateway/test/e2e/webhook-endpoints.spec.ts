import { randomUUID } from 'node:crypto';
import type { WebhookEndpointView } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { send, type RequestOptions } from '../support/http-client';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-hooks');

type Endpoint = WebhookEndpointView;

/*
 * Webhook endpoints end to end: spec 4.9's routes, the SSRF rules at registration and PATCH,
 * and secrets stored sealed. The shared stack admits insecure URLs (plain HTTP, loopback) for
 * the other files' receivers: their refusal when it does not is the destination guard's spec
 * (apps/webhook-delivery-service/test/destinations-and-secrets.spec.ts).
 */
describe('webhook endpoints (end to end)', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let owner: CreatedOrganization;
  let stranger: CreatedOrganization;

  const call = (path: string, options: RequestOptions = {}) => send(e2e.baseUrl, path, options);
  const write = (method: string, path: string, key: string, body?: unknown) => call(path, { method, key, body, headers: { 'Idempotency-Key': randomUUID() } });
  const create = (body: Record<string, unknown>, key = owner.apiKey) => write('POST', '/v1/webhooks/endpoints', key, body);
  // Loopback, where nothing listens: no delivery ever leaves this machine.
  const RECEIVER = 'http://127.0.0.1:9/hooks/pfs';

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-hooks' });
    owner = await e2e.createOrganization('e2e hooks owner');
    stranger = await e2e.createOrganization('e2e hooks stranger');
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  it('registers, reads, lists, updates and deletes an endpoint as spec 4.9 says', async () => {
    const created = await create({ url: RECEIVER, eventTypes: ['transaction.status.updated'], description: 'Ops' });
    expect(created.status).toBe(201);
    const endpoint = created.json<Endpoint>();
    expect(endpoint).toMatchObject({ object: 'webhook_endpoint', url: RECEIVER, description: 'Ops', disabled: false, eventTypes: ['transaction.status.updated'] });
    expect(endpoint.id).toMatch(/^ep_[0-9a-f]{32}$/);
    expect((await call(`/v1/webhooks/endpoints/${endpoint.id}`, { key: owner.apiKey })).json()).toEqual(endpoint);

    const all = await create({ url: `${RECEIVER}/all` });
    expect(all.json<Endpoint>().eventTypes).toEqual([]);
    const listed = await call('/v1/webhooks/endpoints?limit=1', { key: owner.apiKey });
    expect(listed.json<{ data: Endpoint[]; hasMore: boolean }>()).toMatchObject({ object: 'list', hasMore: true, data: [{ id: all.json<Endpoint>().id }] });

    const disabled = await write('PATCH', `/v1/webhooks/endpoints/${endpoint.id}`, owner.apiKey, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.json()).toMatchObject({ disabled: true, url: RECEIVER, description: 'Ops', eventTypes: ['transaction.status.updated'] });
    const changed = await write('PATCH', `/v1/webhooks/endpoints/${endpoint.id}`, owner.apiKey, { disabled: false, eventTypes: [], description: null });
    expect(changed.json()).toMatchObject({ disabled: false, eventTypes: [], description: null });

    const deleted = await write('DELETE', `/v1/webhooks/endpoints/${endpoint.id}`, owner.apiKey);
    expect(deleted.status).toBe(200);
    expect(deleted.json()).toEqual({ object: 'webhook_endpoint', id: endpoint.id, deleted: true });
    expectError(await call(`/v1/webhooks/endpoints/${endpoint.id}`, { key: owner.apiKey }), 404, 'not_found');
    expectError(await write('DELETE', `/v1/webhooks/endpoints/${endpoint.id}`, owner.apiKey), 404, 'not_found');
  });

  it('answers not_found for another organization’s endpoint, on every route', async () => {
    const { id } = (await create({ url: RECEIVER })).json<Endpoint>();
    expectError(await call(`/v1/webhooks/endpoints/${id}`, { key: stranger.apiKey }), 404, 'not_found');
    expectError(await call(`/v1/webhooks/endpoints/${id}/secret`, { key: stranger.apiKey }), 404, 'not_found');
    expectError(await write('PATCH', `/v1/webhooks/endpoints/${id}`, stranger.apiKey, { disabled: true }), 404, 'not_found');
    expectError(await write('POST', `/v1/webhooks/endpoints/${id}/secret/rotate`, stranger.apiKey, {}), 404, 'not_found');
    expectError(await write('DELETE', `/v1/webhooks/endpoints/${id}`, stranger.apiKey), 404, 'not_found');
    expectError(await call('/v1/webhooks/endpoints/ep_nope', { key: owner.apiKey }), 404, 'not_found');
    expect((await call(`/v1/webhooks/endpoints/${id}`, { key: owner.apiKey })).json<Endpoint>().disabled).toBe(false);
  });

  it.each([
    'https://10.1.2.3/hook',
    'https://172.16.0.10/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://[fc00::1]/hook',
    'https://no-such-host.invalid/hook',
    'https://user:secret@93.184.216.34/hook',
  ])('refuses %s at registration and at PATCH (SSRF rules), registering nothing', async (url) => {
    const before = await prisma.webhookEndpoint.count({ where: { organizationId: owner.organizationId } });
    const refused = expectError(await create({ url }), 400, 'invalid_request');
    expect(refused.message).toMatch(/^url: /);
    expect(await prisma.webhookEndpoint.count({ where: { organizationId: owner.organizationId } })).toBe(before);
    const { id } = (await create({ url: RECEIVER })).json<Endpoint>();
    expectError(await write('PATCH', `/v1/webhooks/endpoints/${id}`, owner.apiKey, { url }), 400, 'invalid_request');
  });

  it('refuses unknown event types and malformed bodies with 400 invalid_request', async () => {
    expect(expectError(await create({ url: RECEIVER, eventTypes: ['payment.created'] }), 400, 'invalid_request').message).toContain('payment.created');
    expectError(await create({ url: RECEIVER, eventTypes: 'transaction.status.updated' }), 400, 'invalid_request');
    expectError(await create({ url: RECEIVER, secret: 'mine' }), 400, 'invalid_request');
    expectError(await create({ url: `https://example.com/${'a'.repeat(2050)}` }), 400, 'invalid_request');
  });

  it('keeps the secret sealed at rest, returns it at any time, and rotates it', async () => {
    const { id } = (await create({ url: RECEIVER })).json<Endpoint>();
    const { key } = (await call(`/v1/webhooks/endpoints/${id}/secret`, { key: owner.apiKey })).json<{ key: string }>();
    expect(key).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(key.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const row = await prisma.webhookEndpoint.findUnique({ where: { id } });
    expect(row?.secretSealed).toMatch(/^v1\./);
    expect(row?.secretSealed).not.toContain(key.slice(6));

    // No body at all: the document marks it optional, and the server reads it as {}.
    const rotated = await write('POST', `/v1/webhooks/endpoints/${id}/secret/rotate`, owner.apiKey);
    expect(rotated.status).toBe(200);
    const next = rotated.json<{ key: string }>().key;
    expect(next).not.toBe(key);
    expect((await call(`/v1/webhooks/endpoints/${id}/secret`, { key: owner.apiKey })).json()).toEqual({ key: next });
    expect((await prisma.webhookEndpoint.findUnique({ where: { id } }))?.previousSecretSealed).toBeNull();

    const graceful = await write('POST', `/v1/webhooks/endpoints/${id}/secret/rotate`, owner.apiKey, { gracePeriodSeconds: 3600 });
    expect(graceful.status).toBe(200);
    const kept = await prisma.webhookEndpoint.findUnique({ where: { id } });
    expect(kept?.previousSecretSealed).toMatch(/^v1\./);
    expect(kept?.previousSecretExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 3500 * 1000);
    expectError(await write('POST', `/v1/webhooks/endpoints/${id}/secret/rotate`, owner.apiKey, { gracePeriodSeconds: 86401 }), 400, 'invalid_request');
  });

  it('lists the event types with an example delivery each', async () => {
    const answer = await call('/v1/webhooks/event-types', { key: owner.apiKey });
    expect(answer.status).toBe(200);
    const types = answer.json<{ data: Array<{ type: string; example: { type: string; data: { object: string } } }> }>().data;
    expect(types.map((type) => type.type)).toEqual(['organization.verification.updated', 'transaction.status.updated']);
    for (const type of types) expect(type.example.type).toBe(type.type);
  });
});
