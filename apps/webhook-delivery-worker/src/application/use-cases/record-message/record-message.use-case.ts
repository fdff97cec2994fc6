import { Injectable } from '@nestjs/common';
import { IdGenerator } from '@pfs/contracts';
import { DeliveryQueue } from '../../ports/delivery-queue';
import { DeliveryRepository, type NewMessage } from '../../ports/delivery.repository';
import type { RecordMessageCommand } from './record-message.command';

/**
 * `webhook-message.created`: the message and one delivery per endpoint become rows (with the
 * event's inbox row), and their first attempts are queued once that commits. In a batch of
 * events, `plan` gives the same rows as writes of the batch's one statement.
 */
@Injectable()
export class RecordMessageUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: RecordMessageCommand): Promise<number> {
    const due = await this.deliveries.insertMessage(messageOf(command), this.deliveryIds(command));
    await this.queue.enqueue(due);
    return due.length;
  }

  /** Nothing to read: the writes, which refuse the batch's statement if the message is recorded already. */
  async plan(command: RecordMessageCommand): Promise<() => Promise<void>> {
    const ids = this.deliveryIds(command);
    return async () => {
      await this.queue.enqueue(await this.deliveries.recordMessage(messageOf(command), ids));
    };
  }

  private deliveryIds(command: RecordMessageCommand): string[] {
    return command.deliveries.map(() => this.ids.next('webhookDelivery'));
  }
}

function messageOf(command: RecordMessageCommand): NewMessage {
  return { id: command.messageId, eventType: command.eventType, payload: command.payload, createdAt: new Date(command.createdAt), deliveries: command.deliveries };
}
