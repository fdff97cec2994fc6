import type { EventEnvelope, WebhookAudience, WebhookEventType } from '@pfs/contracts';
import type { WebhookEndpoint } from './webhook-endpoint';

/** The body every endpoint receives for an event: spec 2.12's envelope with spec 6.2's data, nothing else. */
export interface WebhookBody {
  type: WebhookEventType;
  timestamp: string;
  data: EventEnvelope<WebhookEventType>['data'];
}

export function webhookBody(event: EventEnvelope<WebhookEventType>): WebhookBody {
  return { type: event.type, timestamp: event.occurredAt, data: event.data };
}

/**
 * The organizations whose endpoints receive an event (spec 6.4): the organization it is about,
 * always; its creator (broker) for `organization.verification.updated` always, and for
 * `transaction.status.updated` only while the organization holds an ACTIVE LOA for it.
 */
export function recipientOrganizations(type: WebhookEventType, audience: WebhookAudience): string[] {
  const parent = audience.parentOrganizationId;
  if (!parent || parent === audience.organizationId) return [audience.organizationId];
  const creatorReceives = type === 'organization.verification.updated' || audience.parentHoldsActiveLoa;
  return creatorReceives ? [audience.organizationId, parent] : [audience.organizationId];
}

/** Whether the endpoint (not deleted) is subscribed to this type (no types: all), enabled or not. */
export function subscribedTo(endpoint: WebhookEndpoint, type: WebhookEventType): boolean {
  const e = endpoint.props;
  return e.deletedAt === null && (e.eventTypes.length === 0 || e.eventTypes.includes(type));
}

/** Whether the endpoint takes this type now: enabled, not deleted, and subscribed (no types: all). */
export function subscribes(endpoint: WebhookEndpoint, type: WebhookEventType): boolean {
  return !endpoint.props.disabled && subscribedTo(endpoint, type);
}

/** The endpoints one event is delivered to: each recipient organization's subscribed endpoints. */
export function fanOut(type: WebhookEventType, audience: WebhookAudience, endpointsOf: (organizationId: string) => readonly WebhookEndpoint[]): WebhookEndpoint[] {
  return dueTo(type, audience, endpointsOf).filter((endpoint) => !endpoint.props.disabled);
}

/**
 * Every endpoint the event is due to, disabled ones included: a disabled endpoint's delivery is
 * recorded as dropped (api-decisions §8), so recover can send it once the endpoint is back.
 */
export function dueTo(type: WebhookEventType, audience: WebhookAudience, endpointsOf: (organizationId: string) => readonly WebhookEndpoint[]): WebhookEndpoint[] {
  return recipientOrganizations(type, audience).flatMap((organizationId) =>
    endpointsOf(organizationId).filter((endpoint) => endpoint.props.organizationId === organizationId && subscribedTo(endpoint, type)),
  );
}
