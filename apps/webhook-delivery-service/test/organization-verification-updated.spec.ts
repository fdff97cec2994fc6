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

  /** Gives an organization (a new one by default) an endpoint taking every event type (its secret is never read here). */
  const withEndpoint = async (organizationId = newId('organization')): Promise<string> => {
    await service.app.get(PrismaClient).webhookEndpoint.create({
      data: { id: newId('webhookEndpoint'), organizationId, url: 'https://hooks.example.com/verification', secretSealed: 'not read by the fan-out' },
    });
    return organizationId;
  };

  it('fans a batch out in one statement after reading the endpoints, inbox rows included; a redelivery is a duplicate', async () => {
    const events = [verified(await withEndpoint()), verified(await withEndpoint())];
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

  it('writes nothing for events due to no endpoint, not even their inbox rows; redelivered once an endpoint exists, such an event is fanned out once', async () => {
    const lonely = verified(newId('organization'));
    const later = await withEndpoint();
    const before = verified(later);
    const consumer = service.app.get(EventConsumer);
    const prisma = service.app.get(PrismaClient);
    const ids = [lonely.id, before.id];
    const sent = await statementsDuring(async () => {
      expect(await consumer.handleAll([lonely])).toEqual(['ok']);
    });
    expect(writesOf(sent, 'webhook')).toEqual([]);
    expect(await prisma.webhookProcessedEvent.count({ where: { eventId: { in: ids } } })).toBe(0);

    // One event of the batch is due to an endpoint: only its rows are written.
    expect(await consumer.handleAll([lonely, before])).toEqual(['ok', 'ok']);
    expect((await prisma.webhookProcessedEvent.findMany({ where: { eventId: { in: ids } } })).map((row) => row.eventId)).toEqual([before.id]);
    expect((await prisma.webhookMessage.findMany({ where: { eventId: { in: ids } } })).map((row) => row.eventId)).toEqual([before.id]);

    // The organization registers an endpoint; the event that found none is delivered again (a retry, a replay).
    await withEndpoint(lonely.aggregateId);
    expect(await consumer.handleAll([lonely, before])).toEqual(['ok', 'duplicate']);
    expect(await consumer.handleAll([lonely])).toEqual(['duplicate']);
    expect(await prisma.webhookMessage.count({ where: { eventId: { in: ids } } })).toBe(2);
  });
});
