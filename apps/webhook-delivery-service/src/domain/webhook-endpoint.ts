import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from '@pfs/contracts';
import { InvalidEndpointError } from './webhook-endpoint-errors';

/** A secret that still verifies until `expiresAt` (a rotation's grace period). */
export interface RetiringSecret {
  key: string;
  expiresAt: Date;
}

export interface WebhookEndpointProps {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  disabled: boolean;
  eventTypes: readonly string[];
  secret: string;
  previousSecret: RetiringSecret | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** `whsec_` + base64 of the random bytes (24 or more): the Standard Webhooks secret format. */
export function signingSecret(random: Uint8Array): string {
  if (random.length < 24) throw new Error('a signing secret needs at least 24 random bytes');
  return `whsec_${Buffer.from(random).toString('base64')}`;
}

/** Known event types, each once, in catalog order; empty means all. `invalid_request` names an unknown one. */
export function subscribedEventTypes(types: readonly string[]): string[] {
  const unknown = types.filter((type) => !isWebhookEventType(type));
  if (unknown.length) {
    throw new InvalidEndpointError(`eventTypes: ${unknown.map((type) => JSON.stringify(type)).join(', ')} is not an event type (${WEBHOOK_EVENT_TYPES.join(', ')})`);
  }
  return WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type));
}

/** A partner's webhook endpoint (spec 2.10): where and what it receives, and how deliveries are signed. */
export class WebhookEndpoint {
  private constructor(readonly props: Readonly<WebhookEndpointProps>) {}

  static register(input: { id: string; organizationId: string; url: string; description: string | null; eventTypes: readonly string[]; secret: string; now: Date }): WebhookEndpoint {
    return new WebhookEndpoint({
      id: input.id,
      organizationId: input.organizationId,
      url: input.url,
      description: input.description,
      disabled: false,
      eventTypes: subscribedEventTypes(input.eventTypes),
      secret: input.secret,
      previousSecret: null,
      createdAt: input.now,
      updatedAt: input.now,
      deletedAt: null,
    });
  }

  static restore(props: WebhookEndpointProps): WebhookEndpoint {
    return new WebhookEndpoint(props);
  }

  get id(): string {
    return this.props.id;
  }

  get createdAt(): Date {
    return this.props.createdAt;
  }

  /** Another organization's endpoint, or a deleted one, answers as if it did not exist. */
  isVisibleTo(organizationId: string): boolean {
    return this.props.organizationId === organizationId && this.props.deletedAt === null;
  }

  /** PATCH: a field left out is unchanged. */
  update(changes: { url?: string; eventTypes?: readonly string[]; description?: string | null; disabled?: boolean }, now: Date): WebhookEndpoint {
    return new WebhookEndpoint({
      ...this.props,
      url: changes.url ?? this.props.url,
      eventTypes: changes.eventTypes === undefined ? this.props.eventTypes : subscribedEventTypes(changes.eventTypes),
      description: changes.description === undefined ? this.props.description : changes.description,
      disabled: changes.disabled ?? this.props.disabled,
      updatedAt: now,
    });
  }

  delete(now: Date): WebhookEndpoint {
    return new WebhookEndpoint({ ...this.props, disabled: true, deletedAt: now, updatedAt: now });
  }

  /** A new secret; the current one keeps verifying for `graceSeconds` (none: it stops at once). */
  rotate(secret: string, graceSeconds: number, now: Date): WebhookEndpoint {
    const previousSecret = graceSeconds > 0 ? { key: this.props.secret, expiresAt: new Date(now.getTime() + graceSeconds * 1000) } : null;
    return new WebhookEndpoint({ ...this.props, secret, previousSecret, updatedAt: now });
  }

  /** The secrets a delivery is signed with now: the current one, and a retiring one until it expires. */
  signingSecrets(now: Date): string[] {
    const previous = this.props.previousSecret;
    return previous && previous.expiresAt > now ? [this.props.secret, previous.key] : [this.props.secret];
  }
}
