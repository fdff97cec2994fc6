import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type WebhookEndpointDisablingView } from '@pfs/contracts';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import type { DisableEndpointCommand } from './disable-endpoint.command';

/**
 * The delivery worker disables an endpoint (spec 3: "repeated delivery failures"): the receiver
 * answered 410 Gone, or every attempt has failed for WEBHOOK_DISABLE_AFTER. The partner turns it
 * back on with PATCH `disabled: false`; what was dropped meanwhile comes back only by recover.
 */
@Injectable()
export class DisableEndpointUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: DisableEndpointCommand): Promise<WebhookEndpointDisablingView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await this.endpoints.findByIdForUpdate(command.endpointId);
      if (!endpoint || endpoint.props.disabled || endpoint.props.deletedAt) return { endpointId: command.endpointId, disabled: false };
      await this.endpoints.save(endpoint.update({ disabled: true }, this.clock.now()));
      return { endpointId: endpoint.id, disabled: true };
    });
  }
}
