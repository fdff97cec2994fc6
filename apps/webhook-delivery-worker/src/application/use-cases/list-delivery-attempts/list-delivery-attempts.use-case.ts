import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type PageView, type WebhookDeliveryAttemptView } from '@pfs/contracts';
import { presentAttempt } from '../../delivery.presenter';
import { DeliveryRepository } from '../../ports/delivery.repository';
import type { ListDeliveryAttemptsQuery } from './list-delivery-attempts.query';

/** GET /v1/webhooks/endpoints/{id}/deliveries: every attempt to the endpoint, newest first. */
@Injectable()
export class ListDeliveryAttemptsUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly cursors: CursorCodec,
  ) {}

  execute(query: ListDeliveryAttemptsQuery): Promise<PageView<WebhookDeliveryAttemptView>> {
    return this.cursors.page(
      listIdentity('webhook-delivery-attempts', query.organizationId, { endpointId: query.endpointId }),
      query.page,
      // The log pages on (attemptedAt, id), newest first.
      async (after, take) =>
        (await this.deliveries.listAttempts(query.organizationId, query.endpointId, after, take)).map((attempt) => ({ ...attempt, createdAt: attempt.attemptedAt })),
      (attempt) => presentAttempt(attempt),
    );
  }
}
