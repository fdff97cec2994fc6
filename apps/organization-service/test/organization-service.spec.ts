import { Queue } from 'bullmq';
import { eventQueueName, hashApiKey, newId, type DomainEvent } from '@pfs/contracts';
import { createRedisConnection, PLATFORM_CONFIG, RemoteDomainError, ServiceUnavailableError } from '@pfs/messaging';
import { PrismaClient } from '@pfs/persistence';
import type { PlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues, queuedEvent, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import type { CreateRootOrganizationUseCase as CreateRootOrganization } from '../src/application/use-cases/create-root-organization/create-root-organization.use-case';
import { outboxRowsFor, uniqueName } from './support/organization-test-kit';
import { StandInLedger } from './support/stand-in-ledger';

const prefix = isolateQueues('organization');

describe('organization service process', () => {
  let service: ServiceUnderTest;
  let ledger: StandInLedger;
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
    // Creating an organization opens its primary account on the ledger: answered here.
    ledger = new StandInLedger(process.env.REDIS_URL ?? '', prefix);
    await ledger.start();
    service = await startServiceUnderTest(OrganizationModule);
    config = service.app.get<PlatformConfig>(PLATFORM_CONFIG);
    prisma = service.app.get(PrismaClient);
    createOrganization = (approved = true) =>
      service.app.get(CreateRootOrganizationUseCase).execute({ name: uniqueName('Service'), approved });
    revokeKey = (keyId) => service.app.get(RevokeApiKeyUseCase).execute({ keyId });
  });

  afterAll(async () => {
    await service?.close();
    await ledger?.stop();
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

  describe('the primary account of a new organization', () => {
    const committedRow = async ({ organizationId }: { organizationId: string }) =>
      // A connection of its own: it sees only what has committed.
      (await prisma.organization.findUnique({ where: { id: organizationId }, select: { primaryAccountId: true } }))?.primaryAccountId ?? null;

    it('the operator path asks the ledger to open it once the organization has committed, under a command id derived from the organization', async () => {
      ledger.inspect = committedRow;
      const created = await createOrganization();
      const request = ledger.requests.find((entry) => entry.payload.organizationId === created.organizationId);
      expect(request).toEqual({
        payload: { organizationId: created.organizationId, accountId: created.accountId },
        commandId: `primary-account:${created.organizationId}`,
        seen: created.accountId,
      });
    });

    it('organizations.create and referral-invites.accept answer only after the ledger was asked to open the account they name', async () => {
      ledger.inspect = async () => undefined;
      const broker = await createOrganization();
      const client = await service.bus.send(
        'organization',
        'organizations.create',
        { callerOrganizationId: broker.organizationId, name: uniqueName('Client'), entityType: 'BUSINESS', country: 'DE', email: null },
        { requestId },
      );
      expect(ledger.requests.filter((entry) => entry.payload.organizationId === client.organizationId).map((entry) => entry.payload)).toEqual([
        { organizationId: client.organizationId, accountId: client.primaryAccountId },
      ]);

      const invite = await service.bus.send('organization', 'referral-invites.create', { referrerOrganizationId: broker.organizationId, email: 'ada@example.com' }, { requestId });
      const signedUp = await service.bus.send(
        'organization',
        'referral-invites.accept',
        { referrerOrganizationId: broker.organizationId, referralInviteId: invite.referralInvite.referralInviteId, email: 'ada@example.com', name: uniqueName('Ada') },
        { requestId },
      );
      expect(ledger.requests.find((entry) => entry.payload.organizationId === signedUp.organization.organizationId)).toMatchObject({
        payload: { organizationId: signedUp.organization.organizationId, accountId: signedUp.organization.primaryAccountId },
        commandId: `primary-account:${signedUp.organization.organizationId}`,
      });
    });

    it('without a ledger, organizations.create fails as the ledger being unavailable, which the gateway answers as a 503 naming it; the retry under the same command id answers the organization it stored, whose account then opens', async () => {
      const broker = await createOrganization();
      const payloadNamed = (name: string) => ({ callerOrganizationId: broker.organizationId, name, entityType: 'BUSINESS' as const, country: 'DE', email: null });
      await ledger.stop();
      let refused = { commandId: '', name: '' };
      try {
        // The service re-counts the ledger's consumers every second: until it sees none, a send
        // waits for its deadline. Each try has a command id of its own (the gateway's is derived
        // from the request's Idempotency-Key); the refused one is retried below.
        const error = await eventually(async () => {
          const commandId = newId('command');
          const name = uniqueName('No ledger');
          const caught = await service.bus.send('organization', 'organizations.create', payloadNamed(name), { requestId, commandId, timeoutMs: 3000 }).catch((failure: unknown) => failure);
          if (!(caught instanceof ServiceUnavailableError && caught.service === 'ledger')) return undefined;
          refused = { commandId, name };
          return caught;
        }, 15000, 100);
        expect(error.toPayload()).toEqual({ code: 'internal_error', message: 'The ledger service is unavailable; try again shortly.' });
      } finally {
        ledger = new StandInLedger(process.env.REDIS_URL ?? '', prefix);
        await ledger.start();
      }
      const retried = await eventually(
        async () => service.bus.send('organization', 'organizations.create', payloadNamed(refused.name), { requestId, commandId: refused.commandId, timeoutMs: 3000 }).catch(() => undefined),
        15000,
        100,
      );
      const again = await service.bus.send('organization', 'organizations.create', payloadNamed(refused.name), { requestId, commandId: refused.commandId });
      expect(again.organizationId).toBe(retried.organizationId);
      // The refused try stored the organization; the retry answers that one, not a new one.
      const stored = await prisma.organization.findMany({ where: { name: refused.name }, select: { id: true } });
      expect(stored.map((row) => row.id)).toEqual([retried.organizationId]);
      // Its account opens from the organization.created event the refused try stored (relayed to
      // the ledger as the next test shows); its standing went with it, once.
      expect((await outboxRowsFor(prisma, retried.organizationId)).map((row) => [row.type, (row.payload as { data: { primaryAccountId?: string } }).data.primaryAccountId ?? null])).toEqual([
        ['organization.created', retried.primaryAccountId],
        ['organization.standing.updated', null],
      ]);
    });
  });

  it('relays organization.created to the ledger events queue, in a job of its own or with the events of its commit', async () => {
    const created = await createOrganization();

    const published = await eventually(async () => {
      const [row] = await outboxRowsFor(prisma, created.organizationId);
      return row?.publishedAt ? row : undefined;
    });
    expect(published.type).toBe('organization.created');

    const connection = createRedisConnection(config.redisUrl, 'organization-test-reader');
    const queue = new Queue(eventQueueName('ledger'), { connection, prefix });
    try {
      const queued = await queuedEvent(queue, published.id);
      expect(queued).toBeDefined();
      const event = queued?.event as DomainEvent;
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
