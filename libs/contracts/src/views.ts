import type { AssetStatus, AssetType } from './assets';

/**
 * Resource shapes as they cross queues. They are already the wire shapes of the spec (camelCase,
 * decimal strings, ISO timestamps), so the gateway serialises them without remapping.
 */
export interface AssetView {
  object: 'asset';
  code: string;
  name: string;
  type: AssetType;
  scale: number;
  status: AssetStatus;
}

export interface BalanceView {
  object: 'balance';
  asset: string;
  amount: string;
}

export type AccountStatus = 'ACTIVE' | 'SUSPENDED' | 'CLOSED';

export interface BankDetailsView {
  bankName: string;
  accountNumber: string;
  routingNumber: string | null;
  iban: string | null;
  swiftCode: string | null;
  reference: string;
}

export interface FundingMethodView {
  object: 'funding_method';
  fundingMethodId: string;
  accountId: string;
  asset: string;
  type: 'CRYPTO_ADDRESS' | 'BANK_ACCOUNT';
  chainName: string | null;
  address: string | null;
  bank: BankDetailsView | null;
  createdAt: string;
}

export interface AccountView {
  object: 'account';
  accountId: string;
  name: string;
  description: string | null;
  isPrimary: boolean;
  status: AccountStatus;
  fundingMethods: FundingMethodView[];
  balances: BalanceView[];
  createdAt: string;
  updatedAt: string;
}

/** A keyset page as produced by a service; the gateway turns it into the list envelope. */
export interface PageView<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The caller as the gateway established it from the API key. */
export interface Principal {
  organizationId: string;
  keyId: string;
}

// ---------------------------------------------------------------- organizations and authorizations (issue 4 part A)

export const VERIFICATION_STATUSES = ['APPROVED', 'ON_HOLD', 'PENDING', 'RESUBMISSION_REQUIRED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const ENTITY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** An organization as its creator or itself sees it (api-decisions §3). */
export interface OrganizationView {
  object: 'organization';
  organizationId: string;
  name: string;
  /** Null for root organizations created by the operator CLI. */
  entityType: EntityType | null;
  country: string | null;
  email: string | null;
  verificationStatus: VerificationStatus;
  /** The creator (broker); the caller of POST /v1/organizations. */
  parentOrganizationId: string | null;
  referrerOrganizationId: string | null;
  primaryAccountId: string;
  createdAt: string;
}

export const AUTHORIZATION_STATUSES = ['ACTIVE', 'REVOKED'] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATUSES)[number];

/** A Letter of Authorization: the grantor lets the grantee act for it where LOAs are accepted. */
export interface AuthorizationView {
  object: 'authorization';
  authorizationId: string;
  grantorOrganizationId: string;
  granteeOrganizationId: string;
  status: AuthorizationStatus;
  createdAt: string;
  revokedAt: string | null;
}

// Referral invites
export const REFERRAL_INVITE_STATUSES = ['PENDING', 'ACCEPTED', 'EXPIRED'] as const;
export type ReferralInviteStatus = (typeof REFERRAL_INVITE_STATUSES)[number];

/** Spec §2.8, plus `status` as listed by GET /v1/referral-invites (api-decisions §3). */
export interface ReferralInviteView {
  object: 'referral_invite';
  referralInviteId: string;
  email: string;
  url: string;
  status: ReferralInviteStatus;
  expiresAt: string;
  createdAt: string;
}

// ---------------------------------------------------------------- issue 4: tiers

/** A platform pricing tier (api-decisions §6): the spread a client pays and its creator's share of it. */
export interface SubOrgTier {
  key: string;
  label: string;
  spreadBps: number;
  referrerShareBps: number;
}

export interface SubOrgTierView extends SubOrgTier {
  object: 'sub_org_tier';
}

/** Spec 2.9; `tier` is null once removed (default pricing). */
export interface SubOrgTierAssignmentView {
  object: 'sub_org_tier_assignment';
  organizationId: string;
  tier: SubOrgTier | null;
}
