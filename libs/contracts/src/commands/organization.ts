import { z } from 'zod';
import {
  ENTITY_TYPES,
  VERIFICATION_STATUSES,
  type AssetView,
  type AuthorizationView,
  type OrganizationStanding,
  type OrganizationView,
  type PageView,
  type Principal,
  type ReferralInviteView,
  type ServicenetHandleResolution,
  type ServicenetView,
  type SubOrgTier,
  type SubOrgTierAssignmentView,
  type SubOrgTierView,
} from '../views';
import { mutation, pageRequestSchema, query } from './command-definition';
import { systemCommands } from './system';

/**
 * Who may act for another organization through `Service-On-Behalf-Of` (api-decisions §3):
 * only its creator (broker), or its creator or an organization holding an ACTIVE LOA from it.
 */
export const ON_BEHALF_OF_MODES = ['creator', 'creator_or_loa'] as const;
export type OnBehalfOfMode = (typeof ON_BEHALF_OF_MODES)[number];

/**
 * The organization service's queue. Each command's use case is
 * `apps/organization-service/src/application/use-cases/<verb>-<resource>/`.
 */
export const organizationCommands = {
  ...systemCommands,
  /** Resolves a hashed API key to its organization; `authentication_failed` when unknown or revoked. */
  'api-keys.authenticate': query(z.object({ keyHash: z.string() })).returns<Principal>(),
  'assets.list': query(z.object({ organizationId: z.string() })).returns<AssetView[]>(),
  /** Grants a catalog asset to the organization (idempotent); `not_found` for an asset outside the catalog. */
  'assets.enable': mutation(z.object({ organizationId: z.string(), asset: z.string() })).returns<AssetView>(),
  /**
   * May the caller act on behalf of the target? The target's id when it may;
   * `organization_not_found` for an unknown target, `forbidden` when the relation is missing.
   */
  'on-behalf-of.check': query(
    z.object({ callerOrganizationId: z.string(), targetOrganizationId: z.string(), mode: z.enum(ON_BEHALF_OF_MODES) }),
  ).returns<{ organizationId: string }>(),
  /** The caller becomes the new organization's creator (parentOrganizationId). */
  'organizations.create': mutation(
    z.object({
      callerOrganizationId: z.string(),
      name: z.string(),
      entityType: z.enum(ENTITY_TYPES),
      country: z.string(),
      email: z.string().nullable(),
    }),
  ).returns<OrganizationView>(),
  /**
   * For services that move money: the organization's verification status and who receives its
   * transaction events (its creator, and whether it holds an ACTIVE LOA). `organization_not_found` when unknown.
   */
  'organization-standing.get': query(z.object({ organizationId: z.string() })).returns<OrganizationStanding>(),
  /** The caller itself or one of its clients; `organization_not_found` for anything else. */
  'organizations.get': query(z.object({ callerOrganizationId: z.string(), organizationId: z.string() })).returns<OrganizationView>(),
  /** The caller's clients, newest first. */
  'organizations.list': query(z.object({ callerOrganizationId: z.string(), page: pageRequestSchema })).returns<
    PageView<OrganizationView>
  >(),
  /** Sandbox: sets the verification status of the caller or its client; emits the event only on a change. */
  'verification-status.set': mutation(
    z.object({
      callerOrganizationId: z.string(),
      organizationId: z.string(),
      status: z.enum(VERIFICATION_STATUSES),
      reason: z.string().nullable(),
    }),
  ).returns<OrganizationView>(),
  /** `created` is false when the grantee already held an ACTIVE authorization, which is returned. */
  'authorizations.create': mutation(z.object({ grantorOrganizationId: z.string(), granteeOrganizationId: z.string() })).returns<{
    authorization: AuthorizationView;
    created: boolean;
  }>(),
  /** Either party may read, list and revoke; anyone else gets `authorization_not_found`. */
  'authorizations.get': query(z.object({ organizationId: z.string(), authorizationId: z.string() })).returns<AuthorizationView>(),
  'authorizations.list': query(z.object({ organizationId: z.string(), page: pageRequestSchema })).returns<PageView<AuthorizationView>>(),
  'authorizations.revoke': mutation(z.object({ organizationId: z.string(), authorizationId: z.string() })).returns<AuthorizationView>(),
  /** Issues or renews the caller's invite for an email; `referral_invite_already_accepted` once accepted. */
  'referral-invites.create': mutation(z.object({ referrerOrganizationId: z.string(), email: z.string() })).returns<{
    referralInvite: ReferralInviteView;
    created: boolean;
  }>(),
  'referral-invites.list': query(z.object({ referrerOrganizationId: z.string(), page: pageRequestSchema })).returns<
    PageView<ReferralInviteView>
  >(),
  /** Sandbox sign-up through an invite of the caller: a root organization referred by it, and its first key. */
  'referral-invites.accept': mutation(
    z.object({ referrerOrganizationId: z.string(), referralInviteId: z.string(), email: z.string(), name: z.string() }),
  ).returns<{ organization: OrganizationView; apiKey: string }>(),
  /** The tiers the caller may assign to its clients, in platform order. */
  'sub-org-tiers.list': query(z.object({ callerOrganizationId: z.string() })).returns<SubOrgTierView[]>(),
  /**
   * Puts the caller's client on a tier, or removes it (`tierKey` null); only the creator may.
   * `sub_org_tier_not_found` for an unknown key, `sub_org_tier_not_available` for one not offered to the caller.
   */
  'sub-org-tiers.assign': mutation(
    z.object({ callerOrganizationId: z.string(), organizationId: z.string(), tierKey: z.string().nullable() }),
  ).returns<SubOrgTierAssignmentView>(),
  /** The tier in force for the organization at `at` (ISO timestamp; now when omitted), null for default pricing. */
  'sub-org-tiers.get-effective': query(z.object({ organizationId: z.string(), at: z.string().optional() })).returns<SubOrgTier | null>(),
  /** The organization's servicenet (internal transfers) state; answered whether enabled or not. */
  'servicenet.get': query(z.object({ organizationId: z.string() })).returns<ServicenetView>(),
  /** Switches servicenet on (idempotent); a handle claimed before is kept. */
  'servicenet.enable': mutation(z.object({ organizationId: z.string() })).returns<ServicenetView>(),
  /** Switches servicenet off (idempotent): transfers from and to the organization answer `servicenet_not_enabled`; the handle stays reserved. */
  'servicenet.disable': mutation(z.object({ organizationId: z.string() })).returns<ServicenetView>(),
  /**
   * Claims (or changes to) a handle, case-insensitively unique: `servicenet_handle_taken` when
   * another organization holds it, `servicenet_not_enabled` while servicenet is off.
   */
  'servicenet-handles.claim': mutation(z.object({ organizationId: z.string(), handle: z.string() })).returns<ServicenetView>(),
  /** Internal: the organization holding a handle (any case); `servicenet_handle_not_found` when none does. */
  'servicenet-handles.resolve': query(z.object({ handle: z.string() })).returns<ServicenetHandleResolution>(),
} as const;
