import { newId, type EventEnvelope } from '@pfs/contracts';
import { EventConsumer } from '@pfs/messaging';
import { PrismaClient } from '@pfs/persistence';
import { isolateQueues, startServiceUnderTest, statementsDuring, writesOf, type ServiceUnderTest } from '@pfs/testing';

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

  const verified = (organizationId: string): EventEnvelope<'organization.verification.updated'> => ({
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
  });

  it('subscribes to the event and acknowledges it once per event id', async () => {
    const event = verified(newId('organization'));
    const consumer = service.app.get(EventConsumer);
    expect(consumer.hasSubscriptions).toBe(true);
    expect(await consumer.handle(event)).toBe('ok');
    expect(await consumer.handle(event)).toBe('duplicate');
    expect(await service.app.get(PrismaClient).webhookProcessedEvent.count({ where: { eventId: event.id } })).toBe(1);
  });

  it('fans a batch out in one statement after reading the endpoints, inbox rows included; a redelivery is a duplicate', async () => {
    const events = [verified(newId('organization')), verified(newId('organization'))];
    const consumer = service.app.get(EventConsumer);
    let outcomes: unknown;
    const sent = await statementsDuring(async () => {
      outcomes = await consumer.handleAll(events);
    });
    expect(outcomes).toEqual(['ok', 'ok']);
    expect(writesOf(sent, 'webhook')).toEqual(['WITH w0 AS']);
    const prisma = service.app.get(PrismaClient);
    expect(await prisma.webhookMessage.count({ where: { eventId: { in: events.map((event) => event.id) } } })).toBe(2);
    expect(await consumer.handleAll(events)).toEqual(['duplicate', 'duplicate']);
    expect(await prisma.webhookMessage.count({ where: { eventId: { in: events.map((event) => event.id) } } })).toBe(2);
  });
});
