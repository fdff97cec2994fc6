import { Queue } from 'bullmq';
import { eventQueueName, hashApiKey, type DomainEvent } from '@pfs/contracts';
import { createRedisConnection, PLATFORM_CONFIG, RemoteDomainError } from '@pfs/messaging';
import { PrismaClient } from '@pfs/persistence';
import type { PlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import type { CreateRootOrganizationUseCase as CreateRootOrganization } from '../src/application/use-cases/create-root-organization/create-root-organization.use-case';
import { outboxRowsFor, uniqueName } from './support/organization-test-kit';

const prefix = isolateQueues('organization');

describe('organization service process', () => {
  let service: ServiceUnderTest;
  let config: PlatformConfig;
  let prisma: PrismaClient;
  let createOrganization: (approved?: boolean) => ReturnType<CreateRootOrganization['execute']>;
  let revokeKey: (keyId: string) => Promise<unknown>;
  const requestId = 'req_00000000000000000000000000000001';

  beforeAll(async () => {
    const { OrganizationModule } = await import('../src/organization.module');
    const { CreateRootOrganizationUseCase } = await import(
      '../src/application/use-cases/create-root-organization/create-root-organization.use-case'
    );
    const { RevokeApiKeyUseCase } = await import('../src/application/use-cases/revoke-api-key/revoke-api-key.use-case');
    service = await startServiceUnderTest(OrganizationModule);
    config = service.app.get<PlatformConfig>(PLATFORM_CONFIG);
    prisma = service.app.get(PrismaClient);
    createOrganization = (approved = true) =>
      service.app.get(CreateRootOrganizationUseCase).execute({ name: uniqueName('Service'), approved });
    revokeKey = (keyId) => service.app.get(RevokeApiKeyUseCase).execute({ keyId });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('reports alive and ready with PostgreSQL, Redis and its queue', async () => {
    expect((await fetch(`${service.adminUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', queues: 'ok' } });
  });

  it('refuses to commit a command’s unit of work once its sender has stopped waiting', async () => {
    const { runWithRequestId } = await import('@pfs/platform');
    const { CreateRootOrganizationUseCase } = await import('../src/application/use-cases/create-root-organization/create-root-organization.use-case');
    const name = uniqueName('Past deadline');
    const late = runWithRequestId(requestId, () => service.app.get(CreateRootOrganizationUseCase).execute({ name, approved: true }), Date.now() - 1);
    await expect(late).rejects.toMatchObject({ name: 'CommandDeadlineExceededError' });
    expect(await prisma.organization.count({ where: { name } })).toBe(0);
  });

  it('answers system.ping', async () => {
    const reply = await service.bus.send('organization', 'system.ping', {}, { requestId });
    expect(reply.service).toBe('organization');
    expect(Number.isNaN(Date.parse(reply.time))).toBe(false);
  });

  describe('api-keys.authenticate', () => {
    it('resolves the hash of a valid key to its principal', async () => {
      const created = await createOrganization();
      const keyHash = hashApiKey(created.apiKey, config.apiKeyPepper);
      expect(await service.bus.send('organization', 'api-keys.authenticate', { keyHash }, { requestId })).toEqual({
        organizationId: created.organizationId,
        keyId: created.keyId,
      });
    });

    it('answers authentication_failed for an unknown key', async () => {
      const error = await service.bus
        .send('organization', 'api-keys.authenticate', { keyHash: 'f'.repeat(64) }, { requestId })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RemoteDomainError);
      expect(error).toMatchObject({ code: 'authentication_failed' });
    });

    it('answers authentication_failed for a revoked key', async () => {
      const created = await createOrganization();
      const keyHash = hashApiKey(created.apiKey, config.apiKeyPepper);
      await revokeKey(created.keyId);
      const error = await service.bus.send('organization', 'api-keys.authenticate', { keyHash }, { requestId }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RemoteDomainError);
      expect(error).toMatchObject({ code: 'authentication_failed' });
    });
  });

  describe('assets.list', () => {
    it('lists the six catalog assets, all AVAILABLE, for a new organization', async () => {
      const { organizationId } = await createOrganization(false);
      const assets = await service.bus.send('organization', 'assets.list', { organizationId }, { requestId });
      expect(assets.map((asset) => [asset.code, asset.type, asset.scale, asset.status])).toEqual([
        ['USD', 'FIAT', 2, 'AVAILABLE'],
        ['EUR', 'FIAT', 2, 'AVAILABLE'],
        ['USDC', 'CRYPTO', 6, 'AVAILABLE'],
        ['USDT', 'CRYPTO', 6, 'AVAILABLE'],
        ['BTC', 'CRYPTO', 8, 'AVAILABLE'],
        ['ETH', 'CRYPTO', 18, 'AVAILABLE'],
      ]);
      expect(assets.every((asset) => asset.object === 'asset' && asset.name.length > 0)).toBe(true);
    });

    it('answers organization_not_found for an unknown organization', async () => {
      const error = await service.bus
        .send('organization', 'assets.list', { organizationId: 'org_ffffffffffffffffffffffffffff0000' }, { requestId })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RemoteDomainError);
      expect(error).toMatchObject({ code: 'organization_not_found' });
    });
  });

  it('relays organization.created to the ledger events queue, with the event id as job id', async () => {
    const created = await createOrganization();

    const published = await eventually(async () => {
      const [row] = await outboxRowsFor(prisma, created.organizationId);
      return row?.publishedAt ? row : undefined;
    });
    expect(published.type).toBe('organization.created');

    const connection = createRedisConnection(config.redisUrl, 'organization-test-reader');
    const queue = new Queue(eventQueueName('ledger'), { connection, prefix });
    try {
      const job = await queue.getJob(published.id);
      expect(job).toBeDefined();
      expect(job?.name).toBe('organization.created');
      const event = job?.data as DomainEvent;
      expect(event).toMatchObject({
        id: published.id,
        type: 'organization.created',
        source: 'organization',
        data: { organizationId: created.organizationId, primaryAccountId: created.accountId },
      });
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  // Pricing tiers
  describe('tiers over the queue', () => {
    it('assigns a tier to a client and answers sub-org-tiers.get-effective with the tier in force at a time', async () => {
      const broker = await createOrganization();
      const client = await service.bus.send(
        'organization',
        'organizations.create',
        { callerOrganizationId: broker.organizationId, name: uniqueName('Tier client'), entityType: 'BUSINESS', country: 'DE', email: null },
        { requestId },
      );
      const before = new Date(Date.now() - 1000).toISOString();
      expect((await service.bus.send('organization', 'sub-org-tiers.list', { callerOrganizationId: broker.organizationId }, { requestId })).map((t) => t.key)).toEqual([
        'standard',
        'preferred',
        'vip',
      ]);
      const assignment = await service.bus.send(
        'organization',
        'sub-org-tiers.assign',
        { callerOrganizationId: broker.organizationId, organizationId: client.organizationId, tierKey: 'preferred' },
        { requestId },
      );
      expect(assignment).toEqual({
        object: 'sub_org_tier_assignment',
        organizationId: client.organizationId,
        tier: { key: 'preferred', label: 'Preferred', spreadBps: 60, referrerShareBps: 20 },
      });
      expect(await service.bus.send('organization', 'sub-org-tiers.get-effective', { organizationId: client.organizationId }, { requestId })).toEqual({
        key: 'preferred',
        label: 'Preferred',
        spreadBps: 60,
        referrerShareBps: 20,
      });
      expect(await service.bus.send('organization', 'sub-org-tiers.get-effective', { organizationId: client.organizationId, at: before }, { requestId })).toBeNull();
      await expect(
        service.bus.send('organization', 'sub-org-tiers.assign', { callerOrganizationId: broker.organizationId, organizationId: client.organizationId, tierKey: 'gold' }, { requestId }),
      ).rejects.toMatchObject({ code: 'sub_org_tier_not_found' });
    });
  });
});
