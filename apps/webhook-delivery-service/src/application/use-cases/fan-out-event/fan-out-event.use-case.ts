import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, IdGenerator, type EventEnvelope, type WebhookEventType } from '@pfs/contracts';
import { recipientOrganizations } from '../../../domain/fan-out';
import { messageOf, type WebhookMessage } from '../../../domain/webhook-message';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import { WebhookMessageRepository } from '../../ports/webhook-message.repository';

/**
 * A webhook event (organization.verification.updated, transaction.status.updated) becomes one
 * message and one delivery per subscribed, enabled endpoint of its recipients (spec 6.4); an
 * event due to no endpoint leaves nothing behind (most events, for most partners). Runs
 * with the event's inbox row: the message row and the `webhook-message.created` event that hands
 * the deliveries to the worker commit together, or not at all. In a batch, every event's
 * endpoints are read first and the batch is written in one statement (`plan`).
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
    const message = await this.messageFor(event);
    if (!message.deliveries.length) return message;
    if (!(await this.messages.insert(message))) return message;
    await this.announce(message);
    return message;
  }

  /**
   * The same fan-out for a batch's one statement: reads the endpoints now and answers the writes
   * (the message, its `webhook-message.created`), which refuse the statement if the event has a
   * message already; `null` for an event due to no endpoint, which writes nothing.
   */
  async plan(event: EventEnvelope<WebhookEventType>): Promise<(() => Promise<void>) | null> {
    const message = await this.messageFor(event);
    if (!message.deliveries.length) return null;
    return async () => {
      await this.messages.record(message);
      await this.announce(message);
    };
  }

  private async messageFor(event: EventEnvelope<WebhookEventType>): Promise<WebhookMessage> {
    const endpoints = await this.endpoints.findSubscriptionsOf(recipientOrganizations(event.type, event.audience));
    return messageOf(event, endpoints, this.ids.next('webhookMessage'), this.clock.now());
  }

  /** The deliveries go to the worker with the message (only a message due to some endpoint is written). */
  private async announce(message: WebhookMessage): Promise<void> {
    await this.outbox.append('webhook-message.created', {
      messageId: message.id,
      eventType: message.eventType,
      payload: message.payload,
      createdAt: message.createdAt.toISOString(),
      deliveries: message.deliveries,
    });
  }
}
