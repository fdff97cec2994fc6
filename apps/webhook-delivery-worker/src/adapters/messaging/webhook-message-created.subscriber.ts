import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import type { EventHandler } from '@pfs/messaging';
import { RecordMessageUseCase } from '../../application/use-cases/record-message/record-message.use-case';

/** `webhook-message.created` → the message's deliveries, with the event's inbox row (in a batch, its one statement). */
@Injectable()
export class WebhookMessageCreatedSubscriber implements EventHandler<'webhook-message.created'> {
  readonly event = 'webhook-message.created' as const;

  constructor(private readonly record: RecordMessageUseCase) {}

  async handle(event: EventEnvelope<'webhook-message.created'>): Promise<void> {
    await this.record.execute(event.data);
  }

  plan(event: EventEnvelope<'webhook-message.created'>): Promise<() => Promise<void>> {
    return this.record.plan(event.data);
  }
}
