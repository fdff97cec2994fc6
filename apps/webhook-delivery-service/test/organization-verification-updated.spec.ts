import { newId, type EventEnvelope } from '@pfs/contracts';
import { EventConsumer } from '@pfs/messaging';
import { PrismaClient } from '@pfs/persistence';
import { isolateQueues, startServiceUnderTest, type ServiceUnderTest } from '@pfs/testing';

isolateQueues('webhook-verification');

describe('webhook-delivery: organization.verification.updated', () => {
  let service: ServiceUnderTest;

  beforeAll(async () => {
    const { WebhookDeliveryModule } = await import('../src/webhook-delivery.module');
    service = await startServiceUnderTest(WebhookDeliveryModule);
  });

  afterAll(async () => {
    await service?.close();
  });

  it('subscribes to the event and acknowledges it once per event id', async () => {
    const organizationId = newId('organization');
    const event: EventEnvelope<'organization.verification.updated'> = {
      id: newId('event'),
      type: 'organization.verification.updated',
      source: 'organization',
      occurredAt: '2026-11-21T05:00:00.000Z',
      requestId: null,
      aggregateId: organizationId,
      sequence: 1,
      data: {
        object: 'organization',
        organization_id: organizationId,
        status: 'APPROVED',
        previous_status: 'PENDING',
        reason: null,
        occurred_at: '2026-11-21T05:00:00.000Z',
      },
      audience: { organizationId, parentOrganizationId: null, parentHoldsActiveLoa: false },
    };
    const consumer = service.app.get(EventConsumer);
    expect(consumer.hasSubscriptions).toBe(true);
    expect(await consumer.handle(event)).toBe('ok');
    expect(await consumer.handle(event)).toBe('duplicate');
    expect(await service.app.get(PrismaClient).webhookProcessedEvent.count({ where: { eventId: event.id } })).toBe(1);
  });
});
