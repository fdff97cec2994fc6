import type { ErrorPayload } from './errors';
import type { FundingMethodView } from './views';
import type { ReferralInviteView } from './views';
import type { SubOrgTier, SubOrgTierAssignmentView, SubOrgTierView } from './views';
import type {
  AccountView,
  AssetView,
  AuthorizationView,
  EntityType,
  OrganizationView,
  PageView,
  Principal,
  VerificationStatus,
} from './views';

/**
 * The one typed job contract: queue names, job names and payload types together. A service
 * that consumes a queue must register exactly one handler for each job name listed here, or
 * it refuses to start.
 */

export const SERVICES = [
  'gateway',
  'organization',
  'ledger',
  'quote',
  'beneficiary',
  'webhook-delivery',
  'webhook-delivery-worker',
] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Services that own a command queue. */
export type CommandService = Exclude<ServiceName, 'gateway'>;

export function commandQueueName(service: CommandService): string {
  return `${service}-commands`;
}

export function eventQueueName(service: ServiceName): string {
  return `${service}-events`;
}

export interface PingResult {
  service: ServiceName;
  time: string;
}

/**
 * Who may act for another organization through `Service-On-Behalf-Of` (api-decisions §3):
 * only its creator (broker), or its creator or an organization holding an ACTIVE LOA from it.
 */
export const ON_BEHALF_OF_MODES = ['creator', 'creator_or_loa'] as const;
export type OnBehalfOfMode = (typeof ON_BEHALF_OF_MODES)[number];

/** Keyset page request shared by every list command. */
export interface PageRequest {
  limit: number;
  cursor: string | null;
}

// ---------------------------------------------------------------- commands per queue

export interface OrganizationCommands {
  'system.ping': { payload: Record<string, never>; result: PingResult };
  /** Resolves a hashed API key to its organization; `authentication_failed` when unknown or revoked. */
  'auth.authenticate': { payload: { keyHash: string }; result: Principal };
  'assets.list': { payload: { organizationId: string }; result: AssetView[] };
  /**
   * May the caller act on behalf of the target? The target's id when it may;
   * `organization_not_found` for an unknown target, `forbidden` when the relation is missing.
   */
  'access.check-on-behalf-of': {
    payload: { callerOrganizationId: string; targetOrganizationId: string; mode: OnBehalfOfMode };
    result: { organizationId: string };
  };
  // Client organizations, verification and authorizations (LOA), issue 4 part A.
  /** The caller becomes the new organization's creator (parentOrganizationId). */
  'organizations.create': {
    payload: { callerOrganizationId: string; name: string; entityType: EntityType; country: string; email: string | null };
    result: OrganizationView;
  };
  /** The caller itself or one of its clients; `organization_not_found` for anything else. */
  'organizations.get': { payload: { callerOrganizationId: string; organizationId: string }; result: OrganizationView };
  /** The caller's clients, newest first. */
  'organizations.list': { payload: { callerOrganizationId: string; page: PageRequest }; result: PageView<OrganizationView> };
  /** Sandbox: sets the verification status of the caller or its client; emits the event only on a change. */
  'organizations.set-verification': {
    payload: { callerOrganizationId: string; organizationId: string; status: VerificationStatus; reason: string | null };
    result: OrganizationView;
  };
  /** `created` is false when the grantee already held an ACTIVE authorization, which is returned. */
  'authorizations.create': {
    payload: { grantorOrganizationId: string; granteeOrganizationId: string };
    result: { authorization: AuthorizationView; created: boolean };
  };
  /** Either party may read, list and revoke; anyone else gets `authorization_not_found`. */
  'authorizations.get': { payload: { organizationId: string; authorizationId: string }; result: AuthorizationView };
  'authorizations.list': { payload: { organizationId: string; page: PageRequest }; result: PageView<AuthorizationView> };
  'authorizations.revoke': { payload: { organizationId: string; authorizationId: string }; result: AuthorizationView };
  // Assets and funding methods, issue 4 part C.
  /** Grants a catalog asset to the organization (idempotent); `not_found` for an asset outside the catalog. */
  'assets.enable': { payload: { organizationId: string; asset: string }; result: AssetView };
  // Referral invites
  /** Issues or renews the caller's invite for an email; `referral_invite_already_accepted` once accepted. */
  'referral-invites.create': {
    payload: { referrerOrganizationId: string; email: string };
    result: { referralInvite: ReferralInviteView; created: boolean };
  };
  'referral-invites.list': { payload: { referrerOrganizationId: string; page: PageRequest }; result: PageView<ReferralInviteView> };
  /** Sandbox sign-up through an invite of the caller: a root organization referred by it, and its first key. */
  'referral-invites.accept': {
    payload: { referrerOrganizationId: string; referralInviteId: string; email: string; name: string };
    result: { organization: OrganizationView; apiKey: string };
  };
  // Pricing tiers
  /** The tiers the caller may assign to its clients, in platform order. */
  'tiers.list': { payload: { callerOrganizationId: string }; result: SubOrgTierView[] };
  /**
   * Puts the caller's client on a tier, or removes it (`tierKey` null); only the creator may.
   * `sub_org_tier_not_found` for an unknown key, `sub_org_tier_not_available` for one not offered to the caller.
   */
  'tiers.assign': {
    payload: { callerOrganizationId: string; organizationId: string; tierKey: string | null };
    result: SubOrgTierAssignmentView;
  };
  /** The tier in force for the organization at `at` (ISO timestamp; now when omitted), null for default pricing. */
  'tiers.effective': { payload: { organizationId: string; at?: string }; result: SubOrgTier | null };
}

export interface LedgerCommands {
  'system.ping': { payload: Record<string, never>; result: PingResult };
  'accounts.list': { payload: { organizationId: string; page: PageRequest }; result: PageView<AccountView> };
  'accounts.get': { payload: { organizationId: string; accountId: string }; result: AccountView };
  // Assets and funding methods, issue 4 part C.
  /**
   * Provisions the receiving methods of an asset on an account of the organization (its primary
   * account when `accountId` is null), or returns those already provisioned.
   */
  'funding-methods.provision': {
    payload: { organizationId: string; accountId: string | null; asset: string };
    result: FundingMethodView[];
  };
  /** A method on one of the organization's accounts; `funding_method_not_found` for anything else. */
  'funding-methods.get': { payload: { organizationId: string; fundingMethodId: string }; result: FundingMethodView };
}

export interface QuoteCommands {
  'system.ping': { payload: Record<string, never>; result: PingResult };
}

export interface BeneficiaryCommands {
  'system.ping': { payload: Record<string, never>; result: PingResult };
}

export interface WebhookDeliveryCommands {
  'system.ping': { payload: Record<string, never>; result: PingResult };
}

export interface WebhookDeliveryWorkerCommands {
  'system.ping': { payload: Record<string, never>; result: PingResult };
}

export interface CommandContract {
  organization: OrganizationCommands;
  ledger: LedgerCommands;
  quote: QuoteCommands;
  beneficiary: BeneficiaryCommands;
  'webhook-delivery': WebhookDeliveryCommands;
  'webhook-delivery-worker': WebhookDeliveryWorkerCommands;
}

export type CommandName<S extends CommandService> = keyof CommandContract[S] & string;
export type CommandPayload<S extends CommandService, N extends CommandName<S>> = CommandContract[S][N] extends {
  payload: infer P;
}
  ? P
  : never;
export type CommandResult<S extends CommandService, N extends CommandName<S>> = CommandContract[S][N] extends {
  result: infer R;
}
  ? R
  : never;

/** The union of jobs on one service's command queue. */
export type CommandJobOf<S extends CommandService> = {
  [N in CommandName<S>]: { name: N; payload: CommandPayload<S, N> };
}[CommandName<S>];

export type OrganizationCommand = CommandJobOf<'organization'>;
export type LedgerCommand = CommandJobOf<'ledger'>;

/** Runtime list of job names per queue, checked against the types above. */
export const COMMAND_NAMES: { [S in CommandService]: readonly CommandName<S>[] } = {
  organization: [
    'system.ping',
    'auth.authenticate',
    'assets.list',
    'access.check-on-behalf-of',
    // Client organizations, verification and authorizations (LOA), issue 4 part A.
    'organizations.create',
    'organizations.get',
    'organizations.list',
    'organizations.set-verification',
    'authorizations.create',
    'authorizations.get',
    'authorizations.list',
    'authorizations.revoke',
    // Assets and funding methods, issue 4 part C.
    'assets.enable',
    // Referral invites
    'referral-invites.create',
    'referral-invites.list',
    'referral-invites.accept',
    // Pricing tiers
    'tiers.list',
    'tiers.assign',
    'tiers.effective',
  ],
  ledger: [
    'system.ping',
    'accounts.list',
    'accounts.get',
    // Assets and funding methods, issue 4 part C.
    'funding-methods.provision',
    'funding-methods.get',
  ],
  quote: ['system.ping'],
  beneficiary: ['system.ping'],
  'webhook-delivery': ['system.ping'],
  'webhook-delivery-worker': ['system.ping'],
};

/** Metadata every command carries, so logs join up across hops and stale work is skipped. */
export interface CommandMeta {
  requestId: string;
  /** Redis channel on which the sender awaits the reply. */
  replyTo: string;
  /** Epoch milliseconds after which the sender has given up; the handler skips the job. */
  deadline: number;
}

export interface CommandJobData<P = unknown> {
  payload: P;
  meta: CommandMeta;
}

export type CommandReply<R = unknown> = { ok: true; value: R } | { ok: false; error: ErrorPayload };

export interface CommandReplyMessage<R = unknown> {
  jobId: string;
  reply: CommandReply<R>;
}

// ---------------------------------------------------------------- domain events

export interface EventContract {
  'organization.created': {
    organizationId: string;
    primaryAccountId: string;
    name: string;
    parentOrganizationId: string | null;
    referrerOrganizationId: string | null;
    createdAt: string;
  };
  // Verification: a webhook event (spec §6.2), so it travels with its audience.
  'organization.verification.updated': OrganizationVerificationWebhookData;
  /**
   * The ledger has the asset's receiving methods on the account (every POST /v1/funding-methods,
   * also when nothing new was needed): the organization service enables the asset from it, so
   * the asset ends up ENABLED even when the gateway's own enable step failed.
   */
  'funding-methods.provisioned': {
    organizationId: string;
    accountId: string;
    asset: string;
    fundingMethodIds: string[];
    provisionedAt: string;
  };
}

/** The webhook `data` of `organization.verification.updated`, exactly as spec §6.2 (snake_case). */
export interface OrganizationVerificationWebhookData {
  object: 'organization';
  organization_id: string;
  status: VerificationStatus;
  previous_status: VerificationStatus;
  /** Set for ON_HOLD and RESUBMISSION_REQUIRED, else null. */
  reason: string | null;
  occurred_at: string;
}

export type EventType = keyof EventContract & string;

/**
 * Who receives a webhook event (spec 6.4): the organization it is about and, for a client, its
 * creator (broker). It travels beside `data`, so `data` stays exactly the delivered body.
 */
export interface WebhookAudience {
  organizationId: string;
  parentOrganizationId: string | null;
}

/** The events partners receive as webhooks; each is appended with its audience. */
export const WEBHOOK_EVENT_TYPES = ['organization.verification.updated'] as const satisfies readonly EventType[];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The audience argument of `EventOutbox.append`: required for webhook events, absent otherwise. */
export type AudienceArgument<T extends EventType> = T extends WebhookEventType ? [audience: WebhookAudience] : [];

export type EventEnvelope<T extends EventType = EventType> = {
  /** `evt_…`: subscribers de-duplicate on it. */
  id: string;
  type: T;
  source: ServiceName;
  occurredAt: string;
  requestId: string | null;
  data: EventContract[T];
} & (T extends WebhookEventType
  ? {
      /** Who receives it as a webhook (spec 6.4). */
      audience: WebhookAudience;
    }
  : { audience?: undefined });

/** The union of events on any event queue. */
export type DomainEvent = { [T in EventType]: EventEnvelope<T> }[EventType];

/**
 * Who subscribes to what. The outbox relay adds each event to the event queue of every
 * subscriber listed here; a subscriber must handle every type it is listed for.
 */
export const EVENT_SUBSCRIBERS: { [T in EventType]: readonly ServiceName[] } = {
  'organization.created': ['ledger'],
  'organization.verification.updated': ['webhook-delivery'],
  'funding-methods.provisioned': ['organization'],
};

export function subscribedEventTypes(service: ServiceName): EventType[] {
  return (Object.keys(EVENT_SUBSCRIBERS) as EventType[]).filter((type) => EVENT_SUBSCRIBERS[type].includes(service));
}
