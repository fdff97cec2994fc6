import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError, send, type Answer, type RequestOptions } from '../support/http-client';
import { startE2eStack, type CreatedOrganization, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-tiers');

interface Tier {
  key: string;
  label: string;
  spreadBps: number;
  referrerShareBps: number;
}

interface Assignment {
  object: 'sub_org_tier_assignment';
  organizationId: string;
  tier: Tier | null;
}

const STANDARD: Tier = { key: 'standard', label: 'Standard', spreadBps: 100, referrerShareBps: 0 };
const PREFERRED: Tier = { key: 'preferred', label: 'Preferred', spreadBps: 60, referrerShareBps: 20 };
const VIP: Tier = { key: 'vip', label: 'VIP', spreadBps: 30, referrerShareBps: 30 };
const TIER_PATH = '/v1/organizations/sub-org-tier';

/*
 * Pricing tiers end to end: each request through the gateway, the organization service's queue
 * and PostgreSQL. A broker the operator restricts (SUB_ORG_TIER_OFFERS) is proven in the
 * organization service (test/use-cases/assign-sub-org-tier.spec.ts, the real catalog reading the
 * setting) and the gateway's status table (403 sub_org_tier_not_available).
 */
describe('pricing tiers end to end', () => {
  let e2e: E2eStack;
  let prisma: PrismaClient;
  let broker: CreatedOrganization;
  let stranger: CreatedOrganization;

  const call = (path: string, options?: RequestOptions): Promise<Answer> => send(e2e.baseUrl, path, options);
  const createClient = async (key: string): Promise<string> => {
    const answer = await call('/v1/organizations', {
      method: 'POST',
      key,
      body: { name: `Tier client ${randomUUID().slice(0, 8)}`, entityType: 'BUSINESS', country: 'DE' },
    });
    expect(answer.status).toBe(201);
    return answer.json<{ organizationId: string }>().organizationId;
  };
  const keyOf = async (organizationId: string): Promise<string> =>
    (await e2e.cli<{ keyId: string; apiKey: string }>('key:create', '--org', organizationId)).apiKey;
  const setTier = (key: string, clientId: string | null, body?: unknown, headers: Record<string, string> = {}) =>
    call(TIER_PATH, {
      method: 'PUT',
      key,
      headers: clientId ? { 'service-on-behalf-of': clientId, ...headers } : headers,
      body,
    });
  const history = (organizationId: string) =>
    prisma.subOrgTierAssignment.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'gateway-e2e-tiers' });
    [broker, stranger] = await Promise.all([e2e.createOrganization('e2e tier broker'), e2e.createOrganization('e2e tier stranger')]);
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await e2e?.stop();
  }, 60000);

  describe('GET /v1/sub-org-tiers', () => {
    it('lists the three platform tiers to a broker', async () => {
      const answer = await call('/v1/sub-org-tiers', { key: broker.apiKey });
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({
        object: 'list',
        data: [STANDARD, PREFERRED, VIP].map((tier) => ({ object: 'sub_org_tier', ...tier })),
        hasMore: false,
        nextCursor: null,
      });
    }, 120000);

    it('lists the same tiers on behalf of a client to its creator only, and refuses query parameters and a missing key', async () => {
      const client = await createClient(broker.apiKey);
      const forClient = await call('/v1/sub-org-tiers', { key: broker.apiKey, headers: { 'service-on-behalf-of': client } });
      expect(forClient.status).toBe(200);
      expect(forClient.json()).toEqual((await call('/v1/sub-org-tiers', { key: broker.apiKey })).json());
      expectError(await call('/v1/sub-org-tiers', { key: stranger.apiKey, headers: { 'service-on-behalf-of': client } }), 403, 'forbidden');
      expectError(await call('/v1/sub-org-tiers', { key: broker.apiKey, headers: { 'service-on-behalf-of': `org_${'0'.repeat(32)}` } }), 404, 'organization_not_found');
      expectError(await call('/v1/sub-org-tiers?limit=2', { key: broker.apiKey }), 400, 'validation_error');
      expectError(await call('/v1/sub-org-tiers'), 401, 'missing_api_key');
    }, 120000);
  });

  describe('PUT /v1/organizations/sub-org-tier', () => {
    it('prices a PENDING client from creation on, changes and removes its tier, recording each change with its time', async () => {
      const client = await createClient(broker.apiKey);
      const before = Date.now();
      const vip = await setTier(broker.apiKey, client, { subOrgTierKey: 'vip' });
      expect(vip.status).toBe(200);
      expect(vip.json()).toEqual({ object: 'sub_org_tier_assignment', organizationId: client, tier: VIP });

      const preferred = await setTier(broker.apiKey, client, { subOrgTierKey: 'preferred' });
      expect(preferred.json<Assignment>().tier).toEqual(PREFERRED);
      const removed = await setTier(broker.apiKey, client, { subOrgTierKey: null });
      expect(removed.status).toBe(200);
      expect(removed.json()).toEqual({ object: 'sub_org_tier_assignment', organizationId: client, tier: null });

      const rows = await history(client);
      expect(rows.map((row) => [row.tierKey, row.assignedBy])).toEqual([
        ['vip', broker.organizationId],
        ['preferred', broker.organizationId],
        [null, broker.organizationId],
      ]);
      for (const row of rows) {
        expect(row.assignedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
        expect(row.assignedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      }
      const verification = await call(`/v1/organizations/${client}`, { key: broker.apiKey });
      expect(verification.json<{ verificationStatus: string }>().verificationStatus).toBe('PENDING');
    }, 120000);

    it('removes the tier when the field or the whole body is omitted', async () => {
      const client = await createClient(broker.apiKey);
      expect((await setTier(broker.apiKey, client, { subOrgTierKey: 'standard' })).json<Assignment>().tier).toEqual(STANDARD);
      const emptyBody = await setTier(broker.apiKey, client, {});
      expect(emptyBody.status).toBe(200);
      expect(emptyBody.json<Assignment>().tier).toBeNull();
      expect((await setTier(broker.apiKey, client, { subOrgTierKey: 'vip' })).json<Assignment>().tier).toEqual(VIP);
      const noBody = await setTier(broker.apiKey, client);
      expect(noBody.status).toBe(200);
      expect(noBody.json<Assignment>().tier).toBeNull();
      expect((await history(client)).map((row) => row.tierKey)).toEqual(['standard', null, 'vip', null]);
    }, 120000);

    it('answers 400 validation_error without Service-On-Behalf-Of or with a malformed one', async () => {
      expectError(await setTier(broker.apiKey, null, { subOrgTierKey: 'vip' }), 400, 'validation_error');
      expectError(await setTier(broker.apiKey, 'org_123', { subOrgTierKey: 'vip' }), 400, 'validation_error');
    }, 120000);

    it('allows only the creator: an LOA holder, the client itself and a stranger are forbidden', async () => {
      const client = await createClient(broker.apiKey);
      const clientKey = await keyOf(client);
      const loa = await call('/v1/authorizations', { method: 'POST', key: clientKey, body: { granteeOrganizationId: stranger.organizationId } });
      expect(loa.status).toBe(201);
      // The LOA is good enough for the asset list, not for pricing.
      expect((await call('/v1/assets', { key: stranger.apiKey, headers: { 'service-on-behalf-of': client } })).status).toBe(200);
      expectError(await setTier(stranger.apiKey, client, { subOrgTierKey: 'vip' }), 403, 'forbidden');
      expectError(await setTier(clientKey, client, { subOrgTierKey: 'vip' }), 403, 'forbidden');
      const otherClient = await createClient(stranger.apiKey);
      expectError(await setTier(broker.apiKey, otherClient, { subOrgTierKey: 'vip' }), 403, 'forbidden');
      expectError(await setTier(broker.apiKey, broker.organizationId, { subOrgTierKey: 'vip' }), 403, 'forbidden');
      expect(await history(client)).toEqual([]);
    }, 120000);

    it('answers organization_not_found for an unknown client and sub_org_tier_not_found for an unknown key', async () => {
      expectError(await setTier(broker.apiKey, `org_${'0'.repeat(32)}`, { subOrgTierKey: 'vip' }), 404, 'organization_not_found');
      const client = await createClient(broker.apiKey);
      const unknown = expectError(await setTier(broker.apiKey, client, { subOrgTierKey: 'gold' }), 404, 'sub_org_tier_not_found');
      expect(unknown.message).toContain('gold');
      // Keys are exact: a well-formed string that names no tier is unknown, not malformed.
      for (const key of ['VIP', 'Gold', 'vip ']) expectError(await setTier(broker.apiKey, client, { subOrgTierKey: key }), 404, 'sub_org_tier_not_found');
      expect(await history(client)).toEqual([]);
    }, 120000);

    it('answers 400 validation_error naming the field for a malformed body', async () => {
      const client = await createClient(broker.apiKey);
      for (const body of [{ subOrgTierKey: 5 }, { subOrgTierKey: '' }, { subOrgTierKey: 'x'.repeat(65) }, { subOrgTierKey: ['vip'] }]) {
        const error = expectError(await setTier(broker.apiKey, client, body), 400, 'validation_error');
        expect(error.message).toMatch(/^subOrgTierKey: /);
      }
      expect(expectError(await setTier(broker.apiKey, client, { tier: 'vip' }), 400, 'validation_error').message).toContain('tier');
      expectError(await setTier(broker.apiKey, client, ['vip']), 400, 'validation_error');
      expectError(await setTier(broker.apiKey, client, '{"subOrgTierKey":', { 'content-type': 'application/json' }), 400, 'validation_error');
      expect(await history(client)).toEqual([]);
    }, 120000);

    it('is documented with its header, bodies and every error code', async () => {
      const document = (await call('/openapi.json')).json<{
        paths: Record<string, Record<string, { parameters?: Array<{ name: string; required?: boolean }>; responses: Record<string, { content?: { 'application/json': { examples?: Record<string, unknown> } } }> }>>;
      }>();
      const put = document.paths[TIER_PATH]?.put;
      expect(put).toBeDefined();
      expect(put?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Service-On-Behalf-Of', required: true })]));
      const codes = (status: string) => Object.keys(put?.responses[status]?.content?.['application/json'].examples ?? {});
      expect(codes('400')).toEqual(expect.arrayContaining(['validation_error']));
      expect(codes('403')).toEqual(expect.arrayContaining(['forbidden', 'sub_org_tier_not_available']));
      expect(codes('404')).toEqual(expect.arrayContaining(['organization_not_found', 'sub_org_tier_not_found']));
      expect(document.paths['/v1/sub-org-tiers']?.get).toBeDefined();
    }, 120000);
  });
});
