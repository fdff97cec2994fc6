import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type WebhookEndpointView } from '@pfs/contracts';
import { EndpointNotFoundError, InvalidEndpointError } from '../../../domain/webhook-endpoint-errors';
import { DestinationGuard } from '../../ports/destination-guard';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import { presentEndpoint } from '../../webhook-endpoint.presenter';
import type { UpdateEndpointCommand } from './update-endpoint.command';

/** PATCH /v1/webhooks/endpoints/{id}: omitted fields unchanged; a new URL passes the same SSRF rules. */
@Injectable()
export class UpdateEndpointUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly destinations: DestinationGuard,
    private readonly clock: Clock,
  ) {}

  async execute(command: UpdateEndpointCommand): Promise<WebhookEndpointView> {
    if (command.url !== undefined) {
      const problem = await this.destinations.problem(command.url);
      if (problem) throw new InvalidEndpointError(`url: ${problem}`);
    }
    return this.unitOfWork.run(async () => {
      const endpoint = await this.endpoints.findByIdForUpdate(command.endpointId);
      if (!endpoint?.isVisibleTo(command.organizationId)) throw new EndpointNotFoundError(command.endpointId);
      const updated = endpoint.update(
        { url: command.url, eventTypes: command.eventTypes, description: command.description, disabled: command.disabled },
        this.clock.now(),
      );
      await this.endpoints.save(updated);
      return presentEndpoint(updated);
    });
  }
}
