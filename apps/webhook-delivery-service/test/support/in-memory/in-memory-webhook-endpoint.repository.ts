import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage } from '@pfs/test-doubles';
import { WebhookEndpointRepository } from '../../../src/application/ports/webhook-endpoint.repository';
import type { EndpointSubscription } from '../../../src/domain/fan-out';
import type { WebhookEndpoint } from '../../../src/domain/webhook-endpoint';

/** The WebhookEndpointRepository contract over a map, for use-case unit tests. */
export class InMemoryWebhookEndpointRepository extends WebhookEndpointRepository {
  readonly endpoints = new Map<string, WebhookEndpoint>();

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    this.endpoints.set(endpoint.id, endpoint);
  }

  async findById(endpointId: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.get(endpointId) ?? null;
  }

  findByIdForUpdate(endpointId: string): Promise<WebhookEndpoint | null> {
    return this.findById(endpointId);
  }

  async list(organizationId: string, after: CursorPosition | null, limit: number): Promise<WebhookEndpoint[]> {
    const visible = [...this.endpoints.values()].filter((endpoint) => endpoint.props.organizationId === organizationId && endpoint.props.deletedAt === null);
    return newestFirstPage(visible, after, limit);
  }

  async save(endpoint: WebhookEndpoint): Promise<void> {
    this.endpoints.set(endpoint.id, endpoint);
  }

  async findSubscriptionsOf(organizationIds: readonly string[]): Promise<EndpointSubscription[]> {
    return [...this.endpoints.values()]
      .filter((endpoint) => organizationIds.includes(endpoint.props.organizationId) && endpoint.props.deletedAt === null)
      .sort((a, b) => a.props.createdAt.getTime() - b.props.createdAt.getTime())
      .map(({ props: { id, organizationId, disabled, eventTypes, deletedAt } }) => ({ id, organizationId, disabled, eventTypes, deletedAt }));
  }
}
