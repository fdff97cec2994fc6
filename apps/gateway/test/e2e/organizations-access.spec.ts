import SwaggerParser from '@apidevtools/swagger-parser';
import { randomUUID } from 'node:crypto';
import { newId } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError, send, type Answer, type RequestOptions } from '../support/http-client';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-access');

// Its tests start operator CLI processes (org:create, key:create): on a busy 2-core machine
// those alone can outlast jest's default 30 s.
jest.setTimeout(120_000);

interface Organization {
  object: 'organization';
  organizationId: string;
  name: string;
  entityType: string | null;
  country: string | null;
  email: string | null;
  verificationStatus: string;
  parentOrganizationId: string | null;
  referrerOrganizationId: string | null;
  primaryAccountId: string;
  createdAt: string;
}

interface Authorization {
  object: 'authorization';
  authorizationId: string;
  grantorOrganizationId: string;
  granteeOrganizationId: string;
  status: 'ACTIVE' | 'REVOKED';
  createdAt: string;
  revokedAt: string | null;
}

interface List<T> {
  object: 'list';
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

const ORG_ID = /^org_[0-9a-f]{32}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/*
 * End to end: every app as its own process, every request through the gateway,
 * the organization service's queue and PostgreSQL; the ledger opens accounts and the
 * webhook-delivery service receives verification events through the real outbox relay.
 */
describe('organizations, verification and authorizations end to end', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let broker: CreatedOrganization;
  let stranger: CreatedOrganization;

  const call = (path: string, options?: RequestOptions): Promise<Answer> => send(e2e.baseUrl, path, options);
  const createClient = async (key: string, body: Record<string, unknown> = {}): Promise<Organization> => {
    const answer = await call('/v1/organizations', {
      method: 'POST',
      key,
      body: { name: `Client ${randomUUID().slice(0, 8)}`, entityType: 'BUSINESS', country: 'DE', ...body },
    });
    expect(answer.status).toBe(201);
    return answer.json<Organization>();
  };
  const keyOf = async (organizationId: string): Promise<string> =>
    (await e2e.cli<{ keyId: string; apiKey: string }>('key:create', '--org', organizationId)).apiKey;
  const verificationEvents = (organizationId: string) =>
    prisma.organizationOutboxEvent.findMany({
      where: { type: 'organization.verification.updated', payload: { path: ['data', 'organization_id'], equals: organizationId } },
      orderBy: { createdAt: 'asc' },
    });

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-access' });
    [broker, stranger] = await Promise.all([e2e.createOrganization('e2e broker'), e2e.createOrganization('e2e stranger')]);
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  describe('client organizations', () => {
    it('creates a PENDING client of the caller whose primary account the ledger opens, with every asset AVAILABLE', async () => {
      const answer = await call('/v1/organizations', {
        method: 'POST',
        key: broker.apiKey,
        body: { name: ' Jane Doe ', entityType: 'INDIVIDUAL', country: 'FR', email: 'jane@example.com' },
      });
      expect(answer.status).toBe(201);
      const client = answer.json<Organization>();
      expect(client).toEqual({
        object: 'organization',
        organizationId: expect.stringMatching(ORG_ID),
        name: 'Jane Doe',
        entityType: 'INDIVIDUAL',
        country: 'FR',
        email: 'jane@example.com',
        verificationStatus: 'PENDING',
        parentOrganizationId: broker.organizationId,
        referrerOrganizationId: null,
        primaryAccountId: expect.stringMatching(/^acct_[0-9a-f]{32}$/),
        createdAt: expect.stringMatching(ISO_MS),
      });

      const clientKey = await keyOf(client.organizationId);
      const account = await eventually(async () => {
        const read = await call(`/v1/accounts/${client.primaryAccountId}`, { key: clientKey });
        return read.status === 200 ? read.json<{ accountId: string; isPrimary: boolean; status: string }>() : undefined;
      }, 15000);
      expect(account).toMatchObject({ accountId: client.primaryAccountId, isPrimary: true, status: 'ACTIVE' });

      const assets = await call('/v1/assets', { key: clientKey });
      expect(assets.json<List<{ code: string; status: string }>>().data.map((asset) => [asset.code, asset.status])).toEqual([
        ['USD', 'AVAILABLE'],
        ['EUR', 'AVAILABLE'],
        ['USDC', 'AVAILABLE'],
        ['USDT', 'AVAILABLE'],
        ['BTC', 'AVAILABLE'],
        ['ETH', 'AVAILABLE'],
      ]);
    });

    it('shows an organization to itself and its creator, and answers organization_not_found to anyone else', async () => {
      const client = await createClient(broker.apiKey);
      const clientKey = await keyOf(client.organizationId);

      const byCreator = await call(`/v1/organizations/${client.organizationId}`, { key: broker.apiKey });
      expect(byCreator.status).toBe(200);
      expect(byCreator.json()).toEqual(client);
      expect((await call(`/v1/organizations/${client.organizationId}`, { key: clientKey })).json()).toEqual(client);
      const self = await call(`/v1/organizations/${broker.organizationId}`, { key: broker.apiKey });
      expect(self.json()).toMatchObject({
        organizationId: broker.organizationId,
        primaryAccountId: broker.accountId,
        parentOrganizationId: null,
        entityType: null,
        verificationStatus: 'APPROVED',
      });

      for (const [key, id] of [
        [stranger.apiKey, client.organizationId],
        [clientKey, broker.organizationId],
        [broker.apiKey, stranger.organizationId],
        [broker.apiKey, newId('organization')],
        [broker.apiKey, 'org_nope'],
      ]) {
        expectError(await call(`/v1/organizations/${id}`, { key }), 404, 'organization_not_found');
      }
    });

    it('lists only the caller’s clients, newest first, page by page with the list headers', async () => {
      const lister = await e2e.createOrganization('e2e lister');
      const created: Organization[] = [];
      for (let index = 0; index < 3; index++) created.push(await createClient(lister.apiKey));
      await createClient(stranger.apiKey);

      const first = await call('/v1/organizations?limit=2', { key: lister.apiKey });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-page-size')).toBe('2');
      const page = first.json<List<Organization>>();
      expect(page).toMatchObject({ object: 'list', hasMore: true });
      expect(first.headers.get('x-next-cursor')).toBe(page.nextCursor);

      const second = await call(`/v1/organizations?limit=2&cursor=${encodeURIComponent(page.nextCursor ?? '')}`, { key: lister.apiKey });
      const rest = second.json<List<Organization>>();
      expect(rest).toMatchObject({ hasMore: false, nextCursor: null });
      expect(second.headers.get('x-next-cursor')).toBeNull();
      expect([...page.data, ...rest.data]).toEqual([...created].reverse());

      expectError(await call('/v1/organizations?cursor=garbage', { key: lister.apiKey }), 400, 'invalid_request');
    });

    it.each([
      [{ entityType: 'BUSINESS', country: 'DE' }, 'name: must be a string of 1–200 characters'],
      [{ name: '   ', entityType: 'BUSINESS', country: 'DE' }, 'name: must not be empty'],
      [{ name: 'X', entityType: 'PARTNERSHIP', country: 'DE' }, 'entityType: must be one of INDIVIDUAL, BUSINESS'],
      [{ name: 'X', entityType: 'BUSINESS', country: 'de' }, 'country: must be an ISO 3166-1 alpha-2 country code in capitals, e.g. DE'],
      [{ name: 'X', entityType: 'BUSINESS', country: 'XX' }, 'country: must be an ISO 3166-1 alpha-2 country code in capitals, e.g. DE'],
      [{ name: 'X', entityType: 'BUSINESS', country: 'DE', email: 'nope' }, 'email: must be an email address'],
      [{ name: 42, entityType: 'BUSINESS', country: 'DE' }, 'name: must be a string of 1–200 characters'],
      [{ name: 'x'.repeat(201), entityType: 'BUSINESS', country: 'DE' }, 'name: must be at most 200 characters'],
      [{ name: 'X', entityType: 'BUSINESS', country: 'DE', parentOrganizationId: 'org_x' }, 'parentOrganizationId: is not a recognised parameter'],
    ])('answers 400 invalid_request naming the field for %j', async (body, message) => {
      const answer = await call('/v1/organizations', { method: 'POST', key: broker.apiKey, body });
      expect(expectError(answer, 400, 'invalid_request').message).toBe(message);
    });

    it('replays a retried creation with the same Idempotency-Key instead of creating a second client', async () => {
      const key = randomUUID();
      const body = { name: `Retried ${key.slice(0, 8)}`, entityType: 'BUSINESS', country: 'NL' };
      const first = await call('/v1/organizations', { method: 'POST', key: broker.apiKey, headers: { 'Idempotency-Key': key }, body });
      const retry = await call('/v1/organizations', { method: 'POST', key: broker.apiKey, headers: { 'Idempotency-Key': key }, body });
      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.json()).toEqual(first.json());
      expect(await prisma.organization.count({ where: { name: body.name } })).toBe(1);
    });
  });

  describe('sandbox verification', () => {
    const verify = (key: string, organizationId: string, body: Record<string, unknown>) =>
      call(`/v1/sandbox/organizations/${organizationId}/verification`, { method: 'POST', key, body });

    it('sets a client’s status, emits organization.verification.updated once per change, and delivers it to the webhook service', async () => {
      const client = await createClient(broker.apiKey);
      const held = await verify(broker.apiKey, client.organizationId, { status: 'ON_HOLD', reason: 'Proof of address missing' });
      expect(held.status).toBe(200);
      expect(held.json()).toEqual({ ...client, verificationStatus: 'ON_HOLD' });

      // The same status and reason again change nothing and emit nothing.
      const again = await verify(broker.apiKey, client.organizationId, { status: 'ON_HOLD', reason: 'Proof of address missing' });
      expect(again.status).toBe(200);
      expect(again.json()).toMatchObject({ verificationStatus: 'ON_HOLD' });
      const approved = await verify(broker.apiKey, client.organizationId, { status: 'APPROVED' });
      expect(approved.json()).toMatchObject({ verificationStatus: 'APPROVED' });
      expect((await call(`/v1/organizations/${client.organizationId}`, { key: broker.apiKey })).json()).toMatchObject({ verificationStatus: 'APPROVED' });

      const events = await verificationEvents(client.organizationId);
      const data = events.map((event) => (event.payload as { data: Record<string, unknown> }).data);
      expect(data).toEqual([
        {
          object: 'organization',
          organization_id: client.organizationId,
          status: 'ON_HOLD',
          previous_status: 'PENDING',
          reason: 'Proof of address missing',
          occurred_at: expect.stringMatching(ISO_MS),
        },
        {
          object: 'organization',
          organization_id: client.organizationId,
          status: 'APPROVED',
          previous_status: 'ON_HOLD',
          reason: null,
          occurred_at: expect.stringMatching(ISO_MS),
        },
      ]);
      // The client and its creator receive it (spec 6.4): named beside the data, never in it.
      expect(events.map((event) => (event.payload as { audience: unknown }).audience)).toEqual([
        { organizationId: client.organizationId, parentOrganizationId: broker.organizationId, parentHoldsActiveLoa: false },
        { organizationId: client.organizationId, parentOrganizationId: broker.organizationId, parentHoldsActiveLoa: false },
      ]);
      // Relayed after commit and handled by the webhook-delivery service (no endpoint: nothing written).
      await eventually(async () => (events.every((event) => e2e.handledEvent('webhook-delivery-service', event.id)) ? true : undefined), 15000);
    });

    it('lets an organization set its own status', async () => {
      const self = await e2e.createOrganization('e2e self-verify');
      const answer = await verify(self.apiKey, self.organizationId, { status: 'RESUBMISSION_REQUIRED', reason: 'Blurry passport' });
      expect(answer.json()).toMatchObject({ organizationId: self.organizationId, verificationStatus: 'RESUBMISSION_REQUIRED' });
      expect((await verificationEvents(self.organizationId)).map((event) => (event.payload as { audience: unknown }).audience)).toEqual([
        { organizationId: self.organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
      ]);
    });

    it.each([
      [{ status: 'ON_HOLD' }, 'reason: is required when status is ON_HOLD'],
      [{ status: 'RESUBMISSION_REQUIRED', reason: ' ' }, 'reason: is required when status is RESUBMISSION_REQUIRED'],
      [{ status: 'APPROVED', reason: 'fine' }, 'reason: is only accepted when status is ON_HOLD or RESUBMISSION_REQUIRED'],
      [{ status: 'VERIFIED' }, 'status: must be one of APPROVED, ON_HOLD, PENDING, RESUBMISSION_REQUIRED'],
      [{ status: 'ON_HOLD', reason: 7 }, 'reason: must be a string'],
      [{ status: 'APPROVED', note: 'x' }, 'note: is not a recognised parameter'],
    ])('answers 400 invalid_request for %j and changes nothing', async (body, message) => {
      const client = await createClient(broker.apiKey);
      expect(expectError(await verify(broker.apiKey, client.organizationId, body), 400, 'invalid_request').message).toBe(message);
      expect(await verificationEvents(client.organizationId)).toEqual([]);
    });

    it('answers organization_not_found for another organization’s client, the caller’s creator and unknown ids', async () => {
      const client = await createClient(broker.apiKey);
      const clientKey = await keyOf(client.organizationId);
      for (const [key, id] of [
        [stranger.apiKey, client.organizationId],
        [clientKey, broker.organizationId],
        [broker.apiKey, newId('organization')],
        [broker.apiKey, 'org_nope'],
      ]) {
        expectError(await verify(key, id, { status: 'APPROVED' }), 404, 'organization_not_found');
      }
      expect(await verificationEvents(client.organizationId)).toEqual([]);
    });
  });

  describe('sandbox routes in production', () => {
    let production: TestGateway;

    beforeAll(async () => {
      production = await startTestGateway({ env: { SERVICE_ENV: 'production', API_KEY_PEPPER: 'e2e-production-pepper', IDEMPOTENCY_REPLAY_KEY: 'e2e-production-replay-key' } });
    }, 60000);

    afterAll(async () => {
      await production?.close();
    });

    it('answers every /v1/sandbox/... route 404 not_found exactly like an unknown route, and leaves it out of the document', async () => {
      const unknown = expectError(await production.request('/v1/sandbox/nothing-here', { method: 'POST', body: {} }), 404, 'not_found');
      for (const options of [{}, { key: broker.apiKey }, { headers: { authorization: 'Bearer garbage' } }] as RequestOptions[]) {
        const answer = await production.request(`/v1/sandbox/organizations/${broker.organizationId}/verification`, {
          method: 'POST',
          body: { status: 'APPROVED' },
          ...options,
        });
        expect(expectError(answer, 404, 'not_found').message).toBe(unknown.message);
      }

      const document = (await production.request('/openapi.json')).json<{ paths: Record<string, unknown> }>();
      expect(Object.keys(document.paths).filter((path) => path.startsWith('/v1/sandbox'))).toEqual([]);
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/organizations', '/v1/authorizations']));
    });
  });

  describe('authorizations (LOA) and Service-On-Behalf-Of', () => {
    let client: Organization;
    let clientKey: string;

    beforeAll(async () => {
      client = await createClient(broker.apiKey);
      clientKey = await keyOf(client.organizationId);
    });

    const assetsFor = (key: string, organizationId: string) => call('/v1/assets', { key, headers: { 'Service-On-Behalf-Of': organizationId } });

    it('signs an ACTIVE LOA that lets the grantee act on the asset list, until either party revokes it', async () => {
      // Without an LOA the stranger is refused; the creator is always allowed.
      expectError(await assetsFor(stranger.apiKey, client.organizationId), 403, 'forbidden');
      expect((await assetsFor(broker.apiKey, client.organizationId)).status).toBe(200);

      const created = await call('/v1/authorizations', { method: 'POST', key: clientKey, body: { granteeOrganizationId: stranger.organizationId } });
      expect(created.status).toBe(201);
      const authorization = created.json<Authorization>();
      expect(authorization).toEqual({
        object: 'authorization',
        authorizationId: expect.stringMatching(/^loa_[0-9a-f]{32}$/),
        grantorOrganizationId: client.organizationId,
        granteeOrganizationId: stranger.organizationId,
        status: 'ACTIVE',
        createdAt: expect.stringMatching(ISO_MS),
        revokedAt: null,
      });

      // Signing again while it is active returns the same authorization.
      const again = await call('/v1/authorizations', { method: 'POST', key: clientKey, body: { granteeOrganizationId: stranger.organizationId } });
      expect(again.status).toBe(200);
      expect(again.json()).toEqual(authorization);

      const granted = await assetsFor(stranger.apiKey, client.organizationId);
      expect(granted.status).toBe(200);
      expect(granted.json<List<{ code: string }>>().data).toHaveLength(6);
      // An LOA is not the broker relation: the grantee still cannot read the organization itself.
      expectError(await call(`/v1/organizations/${client.organizationId}`, { key: stranger.apiKey }), 404, 'organization_not_found');

      // Either party reads it; anyone else does not learn it exists.
      for (const key of [clientKey, stranger.apiKey]) {
        expect((await call(`/v1/authorizations/${authorization.authorizationId}`, { key })).json()).toEqual(authorization);
      }
      expectError(await call(`/v1/authorizations/${authorization.authorizationId}`, { key: broker.apiKey }), 404, 'authorization_not_found');
      expectError(await call(`/v1/authorizations/${authorization.authorizationId}`, { method: 'DELETE', key: broker.apiKey }), 404, 'authorization_not_found');

      // The grantee revokes; access ends with the very next request.
      const revoked = await call(`/v1/authorizations/${authorization.authorizationId}`, { method: 'DELETE', key: stranger.apiKey });
      expect(revoked.status).toBe(200);
      const revokedBody = revoked.json<Authorization>();
      expect(revokedBody).toEqual({ ...authorization, status: 'REVOKED', revokedAt: expect.stringMatching(ISO_MS) });
      expect(expectError(await assetsFor(stranger.apiKey, client.organizationId), 403, 'forbidden').message).toContain(client.organizationId);
      expect((await assetsFor(broker.apiKey, client.organizationId)).status).toBe(200);

      // Revoking again is the same result.
      const twice = await call(`/v1/authorizations/${authorization.authorizationId}`, { method: 'DELETE', key: clientKey });
      expect(twice.status).toBe(200);
      expect(twice.json()).toEqual(revokedBody);
    });

    it('answers organization_not_found for an unknown client named in Service-On-Behalf-Of', async () => {
      const missing = newId('organization');
      expect(expectError(await assetsFor(broker.apiKey, missing), 404, 'organization_not_found').message).toContain(missing);
    });

    it('lists those given and those received, newest first, to each party only', async () => {
      const grantor = await createClient(broker.apiKey);
      const grantorKey = await keyOf(grantor.organizationId);
      const other = await e2e.createOrganization('e2e other grantee');
      const toStranger = (await call('/v1/authorizations', { method: 'POST', key: grantorKey, body: { granteeOrganizationId: stranger.organizationId } })).json<Authorization>();
      const toOther = (await call('/v1/authorizations', { method: 'POST', key: grantorKey, body: { granteeOrganizationId: other.organizationId } })).json<Authorization>();
      const received = (await call('/v1/authorizations', { method: 'POST', key: other.apiKey, body: { granteeOrganizationId: grantor.organizationId } })).json<Authorization>();

      const first = await call('/v1/authorizations?limit=2', { key: grantorKey });
      expect(first.status).toBe(200);
      const page = first.json<List<Authorization>>();
      expect(page.hasMore).toBe(true);
      const second = (await call(`/v1/authorizations?limit=2&cursor=${encodeURIComponent(page.nextCursor ?? '')}`, { key: grantorKey })).json<List<Authorization>>();
      expect([...page.data, ...second.data].map((item) => item.authorizationId)).toEqual([received, toOther, toStranger].map((item) => item.authorizationId));
      expect(second.hasMore).toBe(false);

      const ofOther = (await call('/v1/authorizations?limit=100', { key: other.apiKey })).json<List<Authorization>>();
      expect(ofOther.data.map((item) => item.authorizationId)).toEqual([received.authorizationId, toOther.authorizationId]);
      const ofBroker = (await call('/v1/authorizations?limit=100', { key: broker.apiKey })).json<List<Authorization>>();
      expect(ofBroker.data.map((item) => item.authorizationId)).not.toContain(toStranger.authorizationId);
    });

    it.each([
      [{ granteeOrganizationId: 'org_nope' }, 400, 'invalid_request', 'granteeOrganizationId: must be an organization id, org_ followed by 32 lowercase hex characters'],
      [{}, 400, 'invalid_request', 'granteeOrganizationId: must be an organization id, org_ followed by 32 lowercase hex characters'],
      [{ granteeOrganizationId: 'SELF' }, 400, 'invalid_request', 'granteeOrganizationId: must be another organization than the caller'],
      [{ granteeOrganizationId: 'UNKNOWN' }, 404, 'organization_not_found', undefined],
      [{ granteeOrganizationId: 'STRANGER', scope: 'all' }, 400, 'invalid_request', 'scope: is not a recognised parameter'],
    ])('refuses POST /v1/authorizations with %j', async (body, status, code, message) => {
      const ids: Record<string, string> = { SELF: client.organizationId, UNKNOWN: newId('organization'), STRANGER: stranger.organizationId };
      const resolved = Object.fromEntries(Object.entries(body).map(([field, value]) => [field, ids[value] ?? value]));
      const error = expectError(await call('/v1/authorizations', { method: 'POST', key: clientKey, body: resolved }), status, code);
      if (message) expect(error.message).toBe(message);
      else expect(error.message).toContain(resolved.granteeOrganizationId);
    });

    it('answers authorization_not_found for malformed and unknown ids', async () => {
      for (const id of ['loa_nope', newId('authorization')]) {
        expectError(await call(`/v1/authorizations/${id}`, { key: clientKey }), 404, 'authorization_not_found');
        expectError(await call(`/v1/authorizations/${id}`, { method: 'DELETE', key: clientKey }), 404, 'authorization_not_found');
      }
    });
  });

  it('documents every new route with its bodies, responses and errors', async () => {
    const document = (await call('/openapi.json')).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; tags?: string[] }>>;
    }>();
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    const expected: Array<[string, string, string[]]> = [
      ['/v1/organizations', 'post', ['201', '400', '401', '409', '422', '429', '500', '503']],
      ['/v1/organizations', 'get', ['200', '400', '401', '429', '500', '503']],
      ['/v1/organizations/{organizationId}', 'get', ['200', '400', '401', '404', '429']],
      ['/v1/sandbox/organizations/{organizationId}/verification', 'post', ['200', '400', '404', '409', '422']],
      ['/v1/authorizations', 'post', ['200', '201', '400', '404', '409', '422']],
      ['/v1/authorizations', 'get', ['200', '400']],
      ['/v1/authorizations/{authorizationId}', 'get', ['200', '404']],
      ['/v1/authorizations/{authorizationId}', 'delete', ['200', '404']],
    ];
    for (const [path, method, statuses] of expected) {
      const operation = document.paths[path]?.[method];
      expect([path, method, Object.keys(operation?.responses ?? {})]).toEqual([path, method, expect.arrayContaining(statuses)]);
      if (method === 'post') expect(operation?.requestBody).toBeDefined();
    }
    const notFound = JSON.stringify(document.paths['/v1/authorizations/{authorizationId}']?.get?.responses['404']);
    expect(notFound).toContain('authorization_not_found');
  });
});
