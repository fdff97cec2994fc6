import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, IdGenerator, type EventEnvelope, type WebhookEventType } from '@pfs/contracts';
import { recipientOrganizations } from '../../../domain/fan-out';
import { messageOf, type WebhookMessage } from '../../../domain/webhook-message';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import { WebhookMessageRepository } from '../../ports/webhook-message.repository';

/**
 * A webhook event (organization.verification.updated, transaction.status.updated) becomes one
 * message and one delivery per subscribed, enabled endpoint of its recipients (spec 6.4). Runs
 * in the event's inbox transaction: the message row and the `webhook-message.created` event
 * that hands the deliveries to the worker commit together, or not at all.
 */
@Injectable()
export class FanOutEventUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly messages: WebhookMessageRepository,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(event: EventEnvelope<WebhookEventType>): Promise<WebhookMessage> {
    const endpoints = await this.endpoints.findSubscriptionsOf(recipientOrganizations(event.type, event.audience));
    const message = messageOf(event, endpoints, this.ids.next('webhookMessage'), this.clock.now());
    if (!(await this.messages.insert(message))) return message;
    if (message.deliveries.length) {
      await this.outbox.append('webhook-message.created', {
        messageId: message.id,
        eventType: message.eventType,
        payload: message.payload,
        createdAt: message.createdAt.toISOString(),
        deliveries: message.deliveries,
      });
    }
    return message;
  }
}
