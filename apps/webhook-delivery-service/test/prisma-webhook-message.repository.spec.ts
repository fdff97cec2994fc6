import { createPrismaClient, PrismaTransactionHost, type PrismaClient } from '@pfs/persistence';
import { testDatabaseUrl } from '@pfs/testing';
import { PrismaWebhookMessageRepository } from '../src/adapters/persistence/prisma-webhook-message.repository';
import type { WebhookMessage } from '../src/domain/webhook-message';

/* Messages that reach no endpoint, kept with the unit of work's last statement, against the real schema. */
describe('PrismaWebhookMessageRepository.record (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let host: PrismaTransactionHost;
  let repository: PrismaWebhookMessageRepository;
  const run = Date.now().toString(16);
  const organizationId = `org_records_${run}`;

  const message = (event: string): WebhookMessage => ({
    id: `msg_${event}_${run}`,
    eventId: `evt_${event}_${run}`,
    eventType: 'transaction.status.updated',
    organizationId,
    payload: `{"type":"transaction.status.updated","event":"${event}"}`,
    createdAt: new Date(Date.UTC(2026, 10, 26, 9, 0, 0)),
    deliveries: [],
  });

  const stored = async () =>
    prisma.$queryRaw<Array<{ event_id: string; payload: string; endpoint_ids: string[]; created_at: Date }>>`
      SELECT event_id, payload, endpoint_ids, created_at FROM "webhook"."messages" WHERE organization_id = ${organizationId} ORDER BY event_id`;

  beforeAll(() => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'webhook-message-repository-spec' });
    host = new PrismaTransactionHost(prisma);
    repository = new PrismaWebhookMessageRepository(host);
  });

  afterAll(async () => {
    await prisma.$executeRaw`DELETE FROM "webhook"."messages" WHERE organization_id = ${organizationId}`;
    await prisma.$disconnect();
  });

  it('writes a unit’s messages together at its end, each once, exactly as given', async () => {
    await host.run(async () => {
      await repository.record(message('a'));
      await repository.record(message('b'));
      // Not written yet: they go with the unit's last statement.
      expect(await host.client.$queryRaw<unknown[]>`SELECT 1 FROM "webhook"."messages" WHERE organization_id = ${organizationId}`).toEqual([]);
    });
    await host.run(() => repository.record(message('a')));
    expect(await stored()).toEqual([
      { event_id: `evt_a_${run}`, payload: message('a').payload, endpoint_ids: [], created_at: message('a').createdAt },
      { event_id: `evt_b_${run}`, payload: message('b').payload, endpoint_ids: [], created_at: message('b').createdAt },
    ]);
  });

  it('writes nothing when the unit rolls back', async () => {
    await expect(
      host.run(async () => {
        await repository.record(message('rolled-back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await stored()).map((row) => row.event_id)).not.toContain(`evt_rolled-back_${run}`);
  });
});
