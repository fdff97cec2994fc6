import { randomBytes } from 'node:crypto';
import { newId } from '@pfs/contracts';
import { createPrismaClient, type PrismaClient } from '@pfs/persistence';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { expectError } from '../support/http-client';
import { startServices, type CreatedOrganization, type ServiceProcesses } from '../support/service-processes';
import { TestEffectsController, type TestEffect } from '../support/test-effects.controller';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const queuePrefix = isolateQueues('gw-on-behalf-of');

/*
 * Service-On-Behalf-Of through a gateway in this process, with the organization service (which
 * decides who may act for whom) as a process. Client organizations are written straight into
 * the organization service's table, with the assets each test needs already enabled; the LOA
 * branch is covered end to end in e2e/organizations-access.spec.ts.
 */
describe('Service-On-Behalf-Of', () => {
  let services: ServiceProcesses;
  let gateway: TestGateway;
  let prisma: PrismaClient;
  let broker: CreatedOrganization;
  let stranger: CreatedOrganization;
  let client: string;

  const createClient = async (parentOrganizationId: string, enabledAssets: string[]) => {
    const id = newId('organization');
    const now = new Date();
    await prisma.organization.create({
      data: {
        id,
        name: `Client ${randomBytes(4).toString('hex')}`,
        entityType: 'BUSINESS',
        country: 'DE',
        verificationStatus: 'PENDING',
        parentOrganizationId,
        primaryAccountId: newId('account'),
        createdAt: now,
        updatedAt: now,
      },
    });
    if (enabledAssets.length) await prisma.organizationAsset.createMany({ data: enabledAssets.map((assetCode) => ({ organizationId: id, assetCode })) });
    return id;
  };

  beforeAll(async () => {
    services = await startServices(queuePrefix, ['organization-service']);
    gateway = await startTestGateway({ controllers: [TestEffectsController] });
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 1, applicationName: 'gateway-on-behalf-of-test' });
    [broker, stranger] = await Promise.all([services.createOrganization('obo broker'), services.createOrganization('obo stranger')]);
    client = await createClient(broker.organizationId, ['BTC', 'USDC']);
  }, 120000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await gateway?.close();
    await services?.stop();
  }, 60000);

  const assetStatuses = (body: { data: Array<{ code: string; status: string }> }) =>
    Object.fromEntries(body.data.map((asset) => [asset.code, asset.status]));

  describe('GET /v1/assets (creator or ACTIVE LOA)', () => {
    it('lists the client’s assets for its creator, and the caller’s own without the header', async () => {
      const forClient = await gateway.request('/v1/assets', { key: broker.apiKey, headers: { 'Service-On-Behalf-Of': client } });
      expect(forClient.status).toBe(200);
      expect(assetStatuses(forClient.json())).toEqual({ USD: 'AVAILABLE', EUR: 'AVAILABLE', USDC: 'ENABLED', USDT: 'AVAILABLE', BTC: 'ENABLED', ETH: 'AVAILABLE' });

      const own = await gateway.request('/v1/assets', { key: broker.apiKey });
      expect(own.status).toBe(200);
      expect(Object.values(assetStatuses(own.json()))).toEqual(Array(6).fill('AVAILABLE'));
    });

    it('answers 403 forbidden to an organization that neither created the client nor holds an LOA from it', async () => {
      const answer = await gateway.request('/v1/assets', { key: stranger.apiKey, headers: { 'Service-On-Behalf-Of': client } });
      expect(expectError(answer, 403, 'forbidden').message).toContain(client);
    });

    it('answers 403 forbidden to a client naming its creator, and to an organization naming itself', async () => {
      const clientKey = await services.createApiKey(client);
      expectError(
        await gateway.request('/v1/assets', { key: clientKey.apiKey, headers: { 'Service-On-Behalf-Of': broker.organizationId } }),
        403,
        'forbidden',
      );
      expectError(await gateway.request('/v1/assets', { key: broker.apiKey, headers: { 'Service-On-Behalf-Of': broker.organizationId } }), 403, 'forbidden');
    });

    it('answers 404 organization_not_found for an organization that does not exist', async () => {
      const missing = newId('organization');
      const answer = await gateway.request('/v1/assets', { key: broker.apiKey, headers: { 'Service-On-Behalf-Of': missing } });
      expect(expectError(answer, 404, 'organization_not_found').message).toContain(missing);
    });

    it.each(['org_123', 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c', `org_${'A'.repeat(32)}`, ' ', 'org_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c, org_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7d'])(
      'answers 400 invalid_request naming the header for the malformed value %j',
      async (value) => {
        const answer = await gateway.request('/v1/assets', { key: broker.apiKey, headers: { 'Service-On-Behalf-Of': value } });
        expect(expectError(answer, 400, 'invalid_request').message).toBe(
          'Service-On-Behalf-Of: must be an organization id, org_ followed by 32 lowercase hex characters',
        );
      },
    );
  });

  describe('routes that do not declare it', () => {
    it('refuse the header with 400 invalid_request instead of acting as the caller', async () => {
      for (const path of ['/v1/accounts', `/v1/accounts/${broker.accountId}`, '/v1/test-effects/any']) {
        const answer = await gateway.request(path, { key: broker.apiKey, headers: { 'Service-On-Behalf-Of': client } });
        expect(expectError(answer, 400, 'invalid_request').message).toBe('Service-On-Behalf-Of is not supported on this endpoint.');
      }
      const counter = `never-${randomBytes(4).toString('hex')}`;
      const put = await gateway.request('/v1/test-effects/one', {
        method: 'PUT',
        key: broker.apiKey,
        headers: { 'Service-On-Behalf-Of': client },
        body: { counter, asset: 'USD', amount: '1' },
      });
      expectError(put, 400, 'invalid_request');
      expect((await gateway.request(`/v1/test-effects/${counter}`, { key: broker.apiKey })).json()).toMatchObject({ count: 0 });
    });
  });

  describe('a creator-only route', () => {
    it('acts for the client when its creator calls', async () => {
      const counter = `obo-${randomBytes(4).toString('hex')}`;
      const answer = await gateway.request('/v1/test-effects', {
        method: 'POST',
        key: broker.apiKey,
        headers: { 'Service-On-Behalf-Of': client },
        body: { counter, asset: 'USD', amount: '1' },
      });
      expect(answer.status).toBe(201);
      expect(answer.json<TestEffect>().organizationId).toBe(client);
    });

    it('requires the header where the route says so, answering with the route’s code', async () => {
      const body = { counter: 'strict', asset: 'USD', amount: '1' };
      const missing = await gateway.request('/v1/test-effects/strict', { method: 'POST', key: broker.apiKey, body });
      expect(expectError(missing, 400, 'validation_error').message).toMatch(/^Service-On-Behalf-Of: is required/);
      const malformed = await gateway.request('/v1/test-effects/strict', { method: 'POST', key: broker.apiKey, headers: { 'Service-On-Behalf-Of': 'org_x' }, body });
      expect(expectError(malformed, 400, 'validation_error').message).toMatch(/^Service-On-Behalf-Of: must be an organization id/);
      const stranger403 = await gateway.request('/v1/test-effects/strict', {
        method: 'POST',
        key: stranger.apiKey,
        headers: { 'Service-On-Behalf-Of': client },
        body,
      });
      expect(expectError(stranger403, 403, 'forbidden').message).toMatch(/Only the organization that created/);
    });
  });
});
