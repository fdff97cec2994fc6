import { createPrismaClient, PrismaTransactionHost, type PrismaClient } from '@pfs/persistence';
import { SecretBox } from '@pfs/platform';
import { statementsDuring, testDatabaseUrl } from '@pfs/testing';
import { PrismaWebhookEndpointRepository } from '../src/adapters/persistence/prisma-webhook-endpoint.repository';
import { WebhookEndpoint } from '../src/domain/webhook-endpoint';

/* The fan-out's read against the real schema: which endpoints it sees, in what order, and that it opens no secret. */
describe('PrismaWebhookEndpointRepository.findSubscriptionsOf (real PostgreSQL)', () => {
  let prisma: PrismaClient;
  let repository: PrismaWebhookEndpointRepository;
  const box = SecretBox.derive('test-webhook-key', 'webhook secrets');
  const run = Date.now().toString(16);
  const client = `org_fanout_client_${run}`;
  const broker = `org_fanout_broker_${run}`;
  const stranger = `org_fanout_stranger_${run}`;
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 9, 0, seconds));

  const endpoint = (id: string, organizationId: string, seconds: number, eventTypes: string[] = []) =>
    WebhookEndpoint.register({ id: `${id}_${run}`, organizationId, url: `https://hooks.example.com/${id}`, description: null, eventTypes, secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0', now: at(seconds) });

  beforeAll(async () => {
    prisma = createPrismaClient({ databaseUrl: testDatabaseUrl(), poolSize: 2, applicationName: 'webhook-endpoint-repository-spec' });
    repository = new PrismaWebhookEndpointRepository(new PrismaTransactionHost(prisma), box);
    await repository.insert(endpoint('ep_b_later', broker, 5));
    await repository.insert(endpoint('ep_c_first', client, 1, ['transaction.status.updated']));
    await repository.insert(endpoint('ep_c_off', client, 2).update({ disabled: true }, at(3)));
    await repository.insert(endpoint('ep_c_gone', client, 3).delete(at(4)));
    await repository.insert(endpoint('ep_s', stranger, 0));
  });

  afterAll(async () => {
    await prisma.$executeRaw`DELETE FROM "webhook"."endpoints" WHERE organization_id = ANY(${[client, broker, stranger]}::text[])`;
    await prisma.$disconnect();
  });

  it('gives the recipients’ endpoints that are not deleted, disabled ones included, oldest first, with what the fan-out decides on', async () => {
    expect(await repository.findSubscriptionsOf([client, broker])).toEqual([
      { id: `ep_c_first_${run}`, organizationId: client, disabled: false, eventTypes: ['transaction.status.updated'], deletedAt: null },
      { id: `ep_c_off_${run}`, organizationId: client, disabled: true, eventTypes: [], deletedAt: null },
      { id: `ep_b_later_${run}`, organizationId: broker, disabled: false, eventTypes: [], deletedAt: null },
    ]);
    expect(await repository.findSubscriptionsOf([`org_fanout_nobody_${run}`])).toEqual([]);
  });

  it('events fanned out together read their subscriptions in one statement, each answered with its own organizations’ endpoints', async () => {
    let answers: Array<Array<{ id: string }>> = [];
    const sent = await statementsDuring(async () => {
      answers = await Promise.all([
        repository.findSubscriptionsOf([broker]),
        repository.findSubscriptionsOf([client, broker]),
        repository.findSubscriptionsOf([stranger]),
        repository.findSubscriptionsOf([`org_fanout_nobody_${run}`]),
      ]);
    });
    expect(sent).toHaveLength(1);
    const ids = (found: Array<{ id: string }> | undefined) => (found ?? []).map((subscription) => subscription.id);
    expect(ids(answers[0])).toEqual([`ep_b_later_${run}`]);
    expect(ids(answers[1])).toEqual([`ep_c_first_${run}`, `ep_c_off_${run}`, `ep_b_later_${run}`]);
    expect(ids(answers[2])).toEqual([`ep_s_${run}`]);
    expect(ids(answers[3])).toEqual([]);
  });

  it('opens no secret: a sealed secret it could not open does not stop the fan-out', async () => {
    await prisma.$executeRaw`UPDATE "webhook"."endpoints" SET secret_sealed = 'not-a-sealed-value' WHERE id = ${`ep_b_later_${run}`}`;
    await expect(repository.findById(`ep_b_later_${run}`)).rejects.toThrow();
    expect((await repository.findSubscriptionsOf([broker])).map((found) => found.id)).toEqual([`ep_b_later_${run}`]);
  });
});
