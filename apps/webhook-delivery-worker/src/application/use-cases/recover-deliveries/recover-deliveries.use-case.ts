import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type WebhookRecoveryView } from '@pfs/contracts';
import { restarted } from '../../../domain/delivery';
import { InvalidRecoveryWindowError } from '../../../domain/delivery-errors';
import { DeliveryQueue } from '../../ports/delivery-queue';
import { DeliveryRepository } from '../../ports/delivery.repository';
import type { RecoverDeliveriesCommand } from './recover-deliveries.command';

/**
 * POST /v1/webhooks/endpoints/{id}/recover (beyond the spec, as Svix offers): every message
 * created in [since, until) whose delivery to the endpoint failed for good or was dropped (the
 * endpoint was disabled) is due again now. What was delivered, or is still retrying, is left.
 */
@Injectable()
export class RecoverDeliveriesUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  // async: a refused window is a rejected promise, as every other use case's error is.
  async execute(command: RecoverDeliveriesCommand): Promise<WebhookRecoveryView> {
    const since = new Date(command.since);
    const until = command.until === null ? null : new Date(command.until);
    if (until && until <= since) throw new InvalidRecoveryWindowError('until: must be after since');
    return this.unitOfWork.run(async () => {
      const now = this.clock.now();
      const failed = await this.deliveries.findFailedForUpdate(command.organizationId, command.endpointId, since, until);
      for (const delivery of failed) await this.deliveries.reschedule(delivery.id, restarted(delivery.schedule, now));
      await this.queue.enqueue(failed.map((delivery) => ({ deliveryId: delivery.id, endpointId: delivery.endpointId, attemptsMade: delivery.schedule.attemptsMade, dueAt: now })));
      return { object: 'webhook_recovery', endpointId: command.endpointId, since: since.toISOString(), until: until?.toISOString() ?? null, messages: failed.length };
    });
  }
}
