import type { EventEnvelope, WebhookEventType } from '@pfs/contracts';
import { dueTo, webhookBody, type EndpointSubscription } from './fan-out';

/**
 * One webhook event as partners receive it: `msg_…` is its `hook-id` on every endpoint and
 * every retry, and `payload` the exact bytes every endpoint is sent and every signature covers.
 */
export interface WebhookMessage {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  /** The organization the event is about. */
  organizationId: string;
  payload: string;
  /** The endpoints it is due to (spec 6.4), each with its owner; a disabled one's delivery is dropped at once. */
  deliveries: Array<{ endpointId: string; organizationId: string; dropped: boolean }>;
  createdAt: Date;
}

/** The message of an event and the endpoints it goes to: spec 6.4's recipients' subscribed endpoints (disabled: dropped). */
export function messageOf(
  event: EventEnvelope<WebhookEventType>,
  endpoints: readonly EndpointSubscription[],
  id: string,
  now: Date,
): WebhookMessage {
  const due = dueTo(event.type, event.audience, (organizationId) => endpoints.filter((endpoint) => endpoint.organizationId === organizationId));
  return {
    id,
    eventId: event.id,
    eventType: event.type,
    organizationId: event.audience.organizationId,
    payload: JSON.stringify(webhookBody(event)),
    deliveries: due.map((endpoint) => ({ endpointId: endpoint.id, organizationId: endpoint.organizationId, dropped: endpoint.disabled })),
    createdAt: now,
  };
}
