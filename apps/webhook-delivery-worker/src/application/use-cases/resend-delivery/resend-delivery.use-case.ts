import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type WebhookDeliveryView } from '@pfs/contracts';
import { restarted } from '../../../domain/delivery';
import { DeliveryNotFoundError } from '../../../domain/delivery-errors';
import { presentDelivery } from '../../delivery.presenter';
import { DeliveryQueue } from '../../ports/delivery-queue';
import { DeliveryRepository } from '../../ports/delivery.repository';
import type { ResendDeliveryCommand } from './resend-delivery.command';

/**
 * POST /v1/webhooks/endpoints/{id}/deliveries/{messageId}/resend: the message is due to the
 * endpoint again now, whatever became of it (delivered, failed, dropped, still retrying), with
 * the whole retry schedule ahead. Same `hook-id`: a receiver that de-duplicates sees it once.
 */
@Injectable()
export class ResendDeliveryUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  execute(command: ResendDeliveryCommand): Promise<WebhookDeliveryView> {
    return this.unitOfWork.run(async () => {
      const delivery = await this.deliveries.findForUpdate(command.organizationId, command.endpointId, command.messageId);
      if (!delivery) throw new DeliveryNotFoundError(command.messageId);
      const schedule = restarted(delivery.schedule, this.clock.now());
      await this.deliveries.reschedule(delivery.id, schedule);
      await this.queue.enqueue([{ deliveryId: delivery.id, endpointId: delivery.endpointId, attemptsMade: schedule.attemptsMade, dueAt: schedule.nextAttemptAt ?? this.clock.now() }]);
      return presentDelivery(delivery.messageId, delivery.endpointId, schedule);
    });
  }
}
