import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type WebhookEndpointDeletionView } from '@pfs/contracts';
import { EndpointNotFoundError } from '../../../domain/webhook-endpoint-errors';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import type { DeleteEndpointCommand } from './delete-endpoint.command';

/** DELETE /v1/webhooks/endpoints/{id}: deliveries stop; the id answers not_found from then on. */
@Injectable()
export class DeleteEndpointUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: DeleteEndpointCommand): Promise<WebhookEndpointDeletionView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await this.endpoints.findByIdForUpdate(command.endpointId);
      if (!endpoint?.isVisibleTo(command.organizationId)) throw new EndpointNotFoundError(command.endpointId);
      await this.endpoints.save(endpoint.delete(this.clock.now()));
      return { object: 'webhook_endpoint', id: endpoint.id, deleted: true };
    });
  }
}
