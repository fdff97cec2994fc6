import { Injectable } from '@nestjs/common';
import type { WebhookEndpointView } from '@pfs/contracts';
import { EndpointNotFoundError } from '../../../domain/webhook-endpoint-errors';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import { presentEndpoint } from '../../webhook-endpoint.presenter';
import type { GetEndpointQuery } from './get-endpoint.query';

@Injectable()
export class GetEndpointUseCase {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  async execute(query: GetEndpointQuery): Promise<WebhookEndpointView> {
    const endpoint = await this.endpoints.findById(query.endpointId);
    if (!endpoint?.isVisibleTo(query.organizationId)) throw new EndpointNotFoundError(query.endpointId);
    return presentEndpoint(endpoint);
  }
}
