import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type PageView, type WebhookEndpointView } from '@pfs/contracts';
import { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository';
import { presentEndpoint } from '../../webhook-endpoint.presenter';
import type { ListEndpointsQuery } from './list-endpoints.query';

export const ENDPOINTS_LIST = 'webhook-endpoints';

/** GET /v1/webhooks/endpoints: the organization's endpoints, newest first (api-decisions §8, §10). */
@Injectable()
export class ListEndpointsUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly cursors: CursorCodec,
  ) {}

  execute(query: ListEndpointsQuery): Promise<PageView<WebhookEndpointView>> {
    return this.cursors.page(
      listIdentity(ENDPOINTS_LIST, query.organizationId),
      query.page,
      (after, take) => this.endpoints.list(query.organizationId, after, take),
      presentEndpoint,
    );
  }
}
