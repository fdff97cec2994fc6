import { Injectable } from '@nestjs/common';
import type { WebhookSecretView } from '@pfs/contracts';
import { EndpointNotFoundError } from '../../../domain/webhook-endpoint-errors';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import type { GetEndpointSecretQuery } from './get-endpoint-secret.query';

/** GET /v1/webhooks/endpoints/{id}/secret: the current signing secret, at any time (spec 4.9). */
@Injectable()
export class GetEndpointSecretUseCase {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  async execute(query: GetEndpointSecretQuery): Promise<WebhookSecretView> {
    const endpoint = await this.endpoints.findById(query.endpointId);
    if (!endpoint?.isVisibleTo(query.organizationId)) throw new EndpointNotFoundError(query.endpointId);
    return { key: endpoint.props.secret };
  }
}
