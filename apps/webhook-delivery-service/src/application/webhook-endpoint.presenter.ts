import type { WebhookEndpointView } from '@pfs/contracts';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';

export function presentEndpoint(endpoint: WebhookEndpoint): WebhookEndpointView {
  const e = endpoint.props;
  return {
    object: 'webhook_endpoint',
    id: e.id,
    url: e.url,
    description: e.description,
    disabled: e.disabled,
    eventTypes: [...e.eventTypes],
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
