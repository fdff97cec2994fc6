import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type PageView, type WebhookEndpointView } from '@pfs/contracts';
import type { WebhookEndpoint } from '../../../domain/webhook-endpoint';
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
      async (after, take) => (await this.endpoints.list(query.organizationId, after, take)).map(asRow),
      (row) => presentEndpoint(row.endpoint),
    );
  }
}

function asRow(endpoint: WebhookEndpoint): { id: string; createdAt: Date; endpoint: WebhookEndpoint } {
  return { id: endpoint.id, createdAt: endpoint.props.createdAt, endpoint };
}
