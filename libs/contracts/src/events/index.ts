import { z } from 'zod';
import { SERVICES, traceCarrierSchema, type ServiceName, type TraceCarrier } from '../jobs';
import { TRANSACTION_ROLES, TRANSACTION_STATUSES, TRANSACTION_TYPES, VERIFICATION_STATUSES } from '../views';

/**
 * Every domain event, declared once: the schema of its `data` (validated when a subscriber
 * consumes it, and the source of its type) and who subscribes to it.
 */
export const EVENT_SCHEMAS = {
  'organization.created': z.object({
    organizationId: z.string(),
    primaryAccountId: z.string(),
    name: z.string(),
    parentOrganizationId: z.string().nullable(),
    referrerOrganizationId: z.string().nullable(),
    createdAt: z.string(),
  }),
  /**
   * What a money-moving service decides on about an organization, whole, after every change of
   * any part of it (creation, verification, an LOA for its creator granted or revoked): the
   * ledger keeps its own copy from these, so no money command waits on the organization service.
   */
  'organization.standing.updated': z.object({
    organizationId: z.string(),
    verificationStatus: z.enum(VERIFICATION_STATUSES),
    parentOrganizationId: z.string().nullable(),
    parentHoldsActiveLoa: z.boolean(),
    referrerOrganizationId: z.string().nullable(),
    updatedAt: z.string(),
  }),
  /**
   * The pricing tier now in force for an organization (null: the platform default), after every
   * assignment or removal: the quote service keeps its own copy from these, so pricing a quote or showing
   * the fees asks no other service.
   */
  'organization.tier.assigned': z.object({
    organizationId: z.string(),
    tier: z.object({ key: z.string(), label: z.string(), spreadBps: z.number().int(), referrerShareBps: z.number().int() }).nullable(),
    assignedAt: z.string(),
  }),
  /** A webhook event (spec §6.2): `data` is exactly the delivered body's data, in snake_case. */
  'organization.verification.updated': z.object({
    object: z.literal('organization'),
    organization_id: z.string(),
    status: z.enum(VERIFICATION_STATUSES),
    previous_status: z.enum(VERIFICATION_STATUSES),
    /** Set for ON_HOLD and RESUBMISSION_REQUIRED, else null. */
    reason: z.string().nullable(),
    occurred_at: z.string(),
  }),
  /**
   * A webhook event (spec §6.2): a transaction changed status, written by the ledger in the
   * transaction of the change (and of its journal entry). Fires on every transition.
   */
  'transaction.status.updated': z.object({
    object: z.literal('transaction'),
    transaction_id: z.string(),
    transaction_type: z.enum(TRANSACTION_TYPES),
    status: z.enum(TRANSACTION_STATUSES),
    previous_status: z.enum(TRANSACTION_STATUSES),
    account_id: z.string(),
    organization_id: z.string(),
    role: z.enum(TRANSACTION_ROLES),
    occurred_at: z.string(),
  }),
  /**
   * The ledger has the asset's receiving methods on the account (every POST /v1/funding-methods,
   * also when nothing new was needed): the organization service enables the asset from it, so
   * the asset ends up ENABLED even when the gateway's own enable step failed.
   */
  'funding-methods.provisioned': z.object({
    organizationId: z.string(),
    accountId: z.string(),
    asset: z.string(),
    fundingMethodIds: z.array(z.string()),
    provisionedAt: z.string(),
  }),
  /**
   * The webhook-delivery service fanned one webhook event out (spec 6.4): the message, with the
   * exact body every endpoint receives, and the endpoints it is due to. The worker records one
   * delivery per endpoint from it and makes the attempts.
   */
  'webhook-message.created': z.object({
    messageId: z.string(),
    eventType: z.string(),
    /** The delivered body, byte for byte (signatures are over these bytes). */
    payload: z.string(),
    createdAt: z.string(),
    /** `dropped`: the endpoint is disabled, so the delivery is recorded dropped (recover re-sends it), never attempted. */
    deliveries: z.array(z.object({ endpointId: z.string(), organizationId: z.string(), dropped: z.boolean().default(false) })).min(1),
  }),
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS & string;
export type EventContract = { [T in EventType]: z.output<(typeof EVENT_SCHEMAS)[T]> };

/**
 * The aggregate each event is about, read from its data: the thing whose events are numbered
 * 1, 2, 3… (`sequence`) by the service that writes them, so a subscriber can tell which of two
 * events about it is newer.
 */
const EVENT_AGGREGATES: { [T in EventType]: (data: EventContract[T]) => string } = {
  'organization.created': (data) => data.organizationId,
  'organization.standing.updated': (data) => data.organizationId,
  'organization.tier.assigned': (data) => data.organizationId,
  'organization.verification.updated': (data) => data.organization_id,
  'funding-methods.provisioned': (data) => data.accountId,
  'transaction.status.updated': (data) => data.transaction_id,
  'webhook-message.created': (data) => data.messageId,
};

export function eventAggregateId<T extends EventType>(type: T, data: EventContract[T]): string {
  return (EVENT_AGGREGATES[type] as (data: EventContract[T]) => string)(data);
}
export type OrganizationVerificationWebhookData = EventContract['organization.verification.updated'];
export type TransactionStatusWebhookData = EventContract['transaction.status.updated'];

/**
 * Who receives a webhook event (spec 6.4): the organization it is about and, for a client, its
 * creator (broker). It travels beside `data`, so `data` stays exactly the delivered body.
 */
export const webhookAudienceSchema = z.object({
  organizationId: z.string(),
  parentOrganizationId: z.string().nullable(),
  /**
   * Whether the organization holds an ACTIVE LOA for its creator when the event happened: the
   * creator receives its `transaction.status.updated` only then (spec 6.4). False when read from
   * an event of the previous release, which did not carry it.
   */
  parentHoldsActiveLoa: z.boolean().default(false),
});
export type WebhookAudience = z.output<typeof webhookAudienceSchema>;

/** The events partners receive as webhooks; each is appended with its audience. */
export const WEBHOOK_EVENT_TYPES = ['organization.verification.updated', 'transaction.status.updated'] as const satisfies readonly EventType[];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** The audience argument of `EventOutbox.append`: required for webhook events, absent otherwise. */
export type AudienceArgument<T extends EventType> = T extends WebhookEventType ? [audience: WebhookAudience] : [];

export type EventEnvelope<T extends EventType = EventType> = {
  /** `evt_…`: subscribers de-duplicate on it. */
  id: string;
  type: T;
  source: ServiceName;
  occurredAt: string;
  requestId: string | null;
  /** The trace context of the span that wrote the event, then of the relay's hand-over (present only when they trace). */
  trace?: TraceCarrier;
  /** The thing the event is about (eventAggregateId): organization id for `organization.*`, account id for `funding-methods.provisioned`, transaction id for `transaction.*`. */
  aggregateId: string;
  /**
   * 1, 2, 3… per aggregate within the publishing service, assigned when the event is written, in
   * the order those transactions commit: of two events about one aggregate, the higher is newer.
   * 0 only for an event written before sequences existed (still in flight during that upgrade).
   */
  sequence: number;
  data: EventContract[T];
} & (T extends WebhookEventType
  ? {
      /** Who receives it as a webhook (spec 6.4). */
      audience: WebhookAudience;
    }
  : { audience?: undefined });

export type WebhookMessageCreated = EventContract['webhook-message.created'];

/** The union of events on any event queue. */
export type DomainEvent = { [T in EventType]: EventEnvelope<T> }[EventType];

/**
 * Who subscribes to what. The outbox relay adds each event to the event queue of every
 * subscriber listed here; a subscriber must handle every type it is listed for.
 */
export const EVENT_SUBSCRIBERS: { [T in EventType]: readonly ServiceName[] } = {
  'organization.created': ['ledger'],
  'organization.standing.updated': ['ledger'],
  'organization.tier.assigned': ['quote'],
  'organization.verification.updated': ['webhook-delivery'],
  'funding-methods.provisioned': ['organization'],
  'transaction.status.updated': ['webhook-delivery'],
  'webhook-message.created': ['webhook-delivery-worker'],
};

export function subscribedEventTypes(service: ServiceName): EventType[] {
  return (Object.keys(EVENT_SUBSCRIBERS) as EventType[]).filter((type) => EVENT_SUBSCRIBERS[type].includes(service));
}

/** The services that consume events: each has an event queue and a dead-letter queue. */
export const EVENT_SUBSCRIBER_SERVICES: readonly ServiceName[] = SERVICES.filter((service) => subscribedEventTypes(service).length > 0);

export function isEventSubscriber(service: string): service is ServiceName {
  return (EVENT_SUBSCRIBER_SERVICES as readonly string[]).includes(service);
}

const envelopeBase = {
  id: z.string(),
  source: z.enum(SERVICES),
  occurredAt: z.string(),
  requestId: z.string().nullable(),
  // A malformed carrier is dropped, never a reason to refuse the event.
  trace: traceCarrierSchema.optional().catch(undefined),
  // Optional on the way in only: a publisher of the previous release (a rolling upgrade) writes
  // neither; the aggregate follows from the data, and 0 sorts before every numbered event.
  aggregateId: z.string().min(1).optional(),
  sequence: z.number().int().nonnegative().default(0),
};

/** Each type's whole envelope, built once: a consumer checks every event it takes against one. */
const ENVELOPE_SCHEMAS = {} as Record<EventType, z.ZodType>;
for (const type of Object.keys(EVENT_SCHEMAS) as EventType[]) {
  ENVELOPE_SCHEMAS[type] = z.object({
    ...envelopeBase,
    type: z.literal(type),
    data: EVENT_SCHEMAS[type],
    ...(isWebhookEventType(type) ? { audience: webhookAudienceSchema } : {}),
  });
}

/**
 * Checks a consumed event against the contract: a known type, the envelope, the type's `data`
 * and (for webhook events) its audience. Unknown fields are dropped, so a newer publisher that
 * adds fields stays readable; an older one's event without `aggregateId` and `sequence` gets
 * them (derived, and 0).
 */
export function parseEvent(raw: unknown): { ok: true; event: DomainEvent } | { ok: false; problem: string } {
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !Object.hasOwn(EVENT_SCHEMAS, type)) {
    return { ok: false, problem: `unknown event type ${JSON.stringify(type)}` };
  }
  const parsed = ENVELOPE_SCHEMAS[type as EventType].safeParse(raw);
  if (!parsed.success) return { ok: false, problem: `${type}: ${z.prettifyError(parsed.error)}` };
  const event = parsed.data as Omit<DomainEvent, 'aggregateId'> & { aggregateId?: string };
  return { ok: true, event: { ...event, aggregateId: event.aggregateId ?? eventAggregateId(event.type, event.data as never) } as DomainEvent };
}

/**
 * The webhook event types partners can subscribe to, each with a line on when it fires and an
 * example of the delivered body (spec 2.12 envelope, spec 6.2 data): GET /v1/webhooks/event-types.
 */
export const WEBHOOK_EVENT_CATALOG: { [T in WebhookEventType]: { description: string; example: { type: T; timestamp: string; data: EventContract[T] } } } = {
  'organization.verification.updated': {
    description: 'An organization’s verification (KYC/KYB) status changed; `reason` is set for ON_HOLD and RESUBMISSION_REQUIRED.',
    example: {
      type: 'organization.verification.updated',
      timestamp: '2026-11-21T04:44:09.123Z',
      data: {
        object: 'organization',
        organization_id: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d',
        status: 'ON_HOLD',
        previous_status: 'PENDING',
        reason: 'Proof of address is unreadable',
        occurred_at: '2026-11-21T04:44:09.123Z',
      },
    },
  },
  'transaction.status.updated': {
    description: 'A transaction changed status; fires on every transition (a faucet credit: EXPECTED → COMPLETED).',
    example: {
      type: 'transaction.status.updated',
      timestamp: '2026-11-21T04:44:09.123Z',
      data: {
        object: 'transaction',
        transaction_id: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e',
        transaction_type: 'CRYPTO_PAYIN',
        status: 'COMPLETED',
        previous_status: 'EXPECTED',
        account_id: 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c',
        organization_id: 'org_5b0e7d1c9a3f4e2b8c6d0a1f3e5b7c9d',
        role: 'RECEIVER',
        occurred_at: '2026-11-21T04:44:09.123Z',
      },
    },
  },
};
