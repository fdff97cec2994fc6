import { Injectable } from '@nestjs/common';
import { Clock, RandomSource, UnitOfWork, type WebhookSecretView } from '@pfs/contracts';
import { signingSecret } from '../../../domain/webhook-endpoint';
import { EndpointNotFoundError } from '../../../domain/webhook-endpoint-errors';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import type { RotateEndpointSecretCommand } from './rotate-endpoint-secret.command';

/**
 * POST /v1/webhooks/endpoints/{id}/secret/rotate: a new secret. The old one stops verifying at
 * once (spec 4.9), or after `gracePeriodSeconds` during which deliveries carry both signatures.
 */
@Injectable()
export class RotateEndpointSecretUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  execute(command: RotateEndpointSecretCommand): Promise<WebhookSecretView> {
    return this.unitOfWork.run(async () => {
      const endpoint = await this.endpoints.findByIdForUpdate(command.endpointId);
      if (!endpoint?.isVisibleTo(command.organizationId)) throw new EndpointNotFoundError(command.endpointId);
      const rotated = endpoint.rotate(signingSecret(this.random.bytes(32)), command.gracePeriodSeconds, this.clock.now());
      await this.endpoints.save(rotated);
      return { key: rotated.props.secret };
    });
  }
}
