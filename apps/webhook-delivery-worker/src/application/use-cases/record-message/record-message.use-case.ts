import { Injectable } from '@nestjs/common';
import { IdGenerator } from '@pfs/contracts';
import { DeliveryQueue } from '../../ports/delivery-queue';
import { DeliveryRepository } from '../../ports/delivery.repository';
import type { RecordMessageCommand } from './record-message.command';

/**
 * `webhook-message.created`: the message and one delivery per endpoint become rows (in the
 * event's inbox transaction), and their first attempts are queued once that commits.
 */
@Injectable()
export class RecordMessageUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: RecordMessageCommand): Promise<number> {
    const due = await this.deliveries.insertMessage(
      { id: command.messageId, eventType: command.eventType, payload: command.payload, createdAt: new Date(command.createdAt), deliveries: command.deliveries },
      command.deliveries.map(() => this.ids.next('webhookDelivery')),
    );
    await this.queue.enqueue(due);
    return due.length;
  }
}
