import type { EventEnvelope, WebhookAudience, WebhookEventType } from '@pfs/contracts';
import type { WebhookEndpointProps } from './webhook-endpoint';

/**
 * What the fan-out reads of an endpoint: whose it is, what it takes and whether it is on. Never
 * its URL or secret: an event is fanned out without opening a single sealed secret.
 */
export type EndpointSubscription = Readonly<Pick<WebhookEndpointProps, 'id' | 'organizationId' | 'disabled' | 'eventTypes' | 'deletedAt'>>;

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
export function subscribedTo(endpoint: EndpointSubscription, type: WebhookEventType): boolean {
  return endpoint.deletedAt === null && (endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(type));
}

/** Whether the endpoint takes this type now: enabled, not deleted, and subscribed (no types: all). */
export function subscribes(endpoint: EndpointSubscription, type: WebhookEventType): boolean {
  return !endpoint.disabled && subscribedTo(endpoint, type);
}

/** The endpoints one event is delivered to: each recipient organization's subscribed endpoints. */
export function fanOut(type: WebhookEventType, audience: WebhookAudience, endpointsOf: (organizationId: string) => readonly EndpointSubscription[]): EndpointSubscription[] {
  return dueTo(type, audience, endpointsOf).filter((endpoint) => !endpoint.disabled);
}

/**
 * Every endpoint the event is due to, disabled ones included: a disabled endpoint's delivery is
 * recorded as dropped (api-decisions §8), so recover can send it once the endpoint is back.
 */
export function dueTo(type: WebhookEventType, audience: WebhookAudience, endpointsOf: (organizationId: string) => readonly EndpointSubscription[]): EndpointSubscription[] {
  return recipientOrganizations(type, audience).flatMap((organizationId) =>
    endpointsOf(organizationId).filter((endpoint) => endpoint.organizationId === organizationId && subscribedTo(endpoint, type)),
  );
}
