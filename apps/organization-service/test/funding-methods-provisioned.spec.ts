import { newId, type EventEnvelope } from '@pfs/contracts';
import { EventConsumer } from '@pfs/messaging';
import { PrismaClient } from '@pfs/persistence';
import { isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';
import { createOrganizationTestKit, uniqueName, type OrganizationTestKit } from './support/organization-test-kit';

isolateQueues('org-funding-provisioned');

describe('organization service: funding-methods.provisioned', () => {
  let service: ServiceUnderTest;
  let kit: OrganizationTestKit;

  beforeAll(async () => {
    const { OrganizationModule } = await import('../src/organization.module');
    service = await startServiceUnderTest(OrganizationModule);
    kit = createOrganizationTestKit();
  });

  afterAll(async () => {
    await kit?.close();
    await service?.close();
  });

  const provisioned = (organizationId: string, asset: string, accountId = newId('account')): EventEnvelope<'funding-methods.provisioned'> => ({
    id: newId('event'),
    type: 'funding-methods.provisioned',
    source: 'ledger',
    occurredAt: '2026-11-21T05:00:00.000Z',
    requestId: null,
    aggregateId: accountId,
    sequence: 1,
    data: { organizationId, accountId, asset, fundingMethodIds: [], provisionedAt: '2026-11-21T05:00:00.000Z' },
  });

  it('enables the asset for the organization, once per event id, and leaves an enabled asset enabled', async () => {
    const { organizationId } = await kit.createRootOrganization.execute({ name: uniqueName('Provisioned'), approved: true });
    const consumer = service.app.get(EventConsumer);
    expect(consumer.hasSubscriptions).toBe(true);
    const prisma = service.app.get(PrismaClient);

    const event = provisioned(organizationId, 'EUR');
    expect(await consumer.handle(event)).toBe('ok');
    expect(await consumer.handle(event)).toBe('duplicate');
    expect(await consumer.handle(provisioned(organizationId, 'EUR'))).toBe('ok');
    expect(await prisma.organizationAsset.findMany({ where: { organizationId }, select: { assetCode: true } })).toEqual([{ assetCode: 'EUR' }]);
    expect(await prisma.organizationProcessedEvent.count({ where: { eventId: event.id } })).toBe(1);
  });
});
