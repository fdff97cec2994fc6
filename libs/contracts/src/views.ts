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

// ---------------------------------------------------------------- organizations and authorizations

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

// ---------------------------------------------------------------- pricing tiers

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

// ---------------------------------------------------------------- ledger: transactions, entries, fees

/** api-decisions §5. */
export const TRANSACTION_TYPES = ['CRYPTO_PAYIN', 'FIAT_PAYIN', 'CRYPTO_PAYOUT', 'FIAT_PAYOUT', 'TRADE', 'INTERNAL_TRANSFER', 'COMMISSION'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Spec §3. */
export const TRANSACTION_STATUSES = ['EXPECTED', 'LOCKED', 'COMPLETED', 'DECLINED', 'REFUNDED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The account's side of a transaction, as `transaction.status.updated` names it. */
export const TRANSACTION_ROLES = ['SENDER', 'RECEIVER'] as const;
export type TransactionRole = (typeof TRANSACTION_ROLES)[number];

/** What the sandbox may do to a transaction: POST /v1/sandbox/transactions/{id}/{action}. */
export const TRANSACTION_ACTIONS = ['lock', 'complete', 'decline', 'refund'] as const;
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

/** Payout rails, each with its own fees (GET /v1/fees). */
export const PAYOUT_RAILS = ['FIAT', 'CRYPTO'] as const;
export type PayoutRail = (typeof PAYOUT_RAILS)[number];

/** Spec 2.7 and the fields api-decisions §5 adds "as they apply" (null where they do not). */
export interface TransactionView {
  object: 'transaction';
  transactionId: string;
  type: TransactionType;
  status: TransactionStatus;
  accountId: string;
  amount: string;
  asset: string;
  chainName: string | null;
  beneficiaryId: string | null;
  quoteId: string | null;
  fee: string | null;
  feeAsset: string | null;
  counterpartyOrganizationId: string | null;
  reference: string | null;
  failureReason: string | null;
  /** Where a payout goes, as it was when the payout was created; null for every other type. */
  destination: PayoutDestinationView | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Where a payout goes, taken from its beneficiary when the payout was created and kept with it: a
 * later PATCH of the beneficiary changes neither this nor where the payout is sent. Masked as a
 * beneficiary is shown: a bank account only by its last four characters (no IBAN, which embeds
 * the account number); a chain address in full, as it is public.
 */
export interface PayoutDestinationView {
  rail: PayoutRail;
  /** The beneficiary's nickname and, when known, the holder's name (legal, business or first and last). */
  nickname: string;
  name: string | null;
  bank: Pick<BeneficiaryBankView, 'bankName' | 'method' | 'currency' | 'swiftCode' | 'bankCountry' | 'routingNumber' | 'accountNumberLast4'> | null;
  crypto: Pick<BeneficiaryCryptoView, 'chainName' | 'platform' | 'address'> | null;
}

/** One journal line on a customer account: a statement line (GET /v1/accounts/{id}/entries). */
export interface AccountEntryView {
  object: 'account_entry';
  /** The journal entry (`jrnl_…`) the line belongs to: one per balance change. */
  journalId: string;
  transactionId: string;
  accountId: string;
  asset: string;
  /** Signed decimal string: positive credits the account, negative debits it. */
  amount: string;
  /** The account's balance in the asset right after this line. */
  balanceAfter: string;
  createdAt: string;
}

export interface PayoutFeeView {
  object: 'payout_fee';
  rail: PayoutRail;
  asset: string;
  /** Flat fee per payout, in the asset, charged on top of the amount. */
  amount: string;
}

/** The caller's effective pricing (GET /v1/fees). */
export interface FeesView {
  object: 'fees';
  organizationId: string;
  /** The tier in force, or null for platform default pricing. */
  tier: { key: string; label: string } | null;
  /** Charged in the source asset of every trade (api-decisions §6). */
  spreadBps: number;
  /** Share of the spread credited to the organization's creator, or else its referrer. */
  referrerShareBps: number;
  payoutFees: PayoutFeeView[];
}

/** The pricing in force for an organization: its tier's, or the platform default with no referrer share. */
export interface PricingView {
  /** The tier in force, or null for platform default pricing. */
  tier: { key: string; label: string } | null;
  spreadBps: number;
  referrerShareBps: number;
}

/** Which organization holds an account, and the account's status: what a quote is checked by. */
export interface AccountHolderView {
  accountId: string;
  organizationId: string;
  status: AccountStatus;
}

/** What the ledger needs to know about an organization when it moves money (its own facts live in the organization service). */
export interface OrganizationStanding {
  organizationId: string;
  verificationStatus: VerificationStatus;
  parentOrganizationId: string | null;
  /** Whether the organization has signed an ACTIVE LOA for its creator (spec 6.4: transaction events reach the creator only then). */
  parentHoldsActiveLoa: boolean;
  /** The organization that referred it (sign-up through a referral invite), or null: a trade's commission goes to it when there is no creator. */
  referrerOrganizationId: string | null;
}

// ---------------------------------------------------------------- servicenet

/** GET /v1/servicenet: the caller's internal-transfer state. `handle` is stored lower-cased; null until claimed. */
export interface ServicenetView {
  object: 'servicenet';
  enabled: boolean;
  handle: string | null;
  updatedAt: string | null;
}

/** What `servicenet-handles.resolve` answers (internal): the organization holding a handle and whether it is on servicenet now. */
export interface ServicenetHandleResolution {
  organizationId: string;
  organizationName: string;
  handle: string;
  enabled: boolean;
}

// ---------------------------------------------------------------- quotes

export const QUOTE_STATUSES = ['PENDING', 'COMPLETED', 'EXPIRED', 'FAILED'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** Spec 2.6, plus the trade once executed and why a quote failed. */
export interface QuoteView {
  object: 'quote';
  quoteId: string;
  accountId: string;
  fromAsset: string;
  toAsset: string;
  fromAmount: string;
  toAmount: string;
  appliedRate: string;
  /** Null when no spread fee was applied (a tier of 0 bps). */
  spread: { fee: string; asset: string } | null;
  status: QuoteStatus;
  /** The TRADE transaction once COMPLETED. */
  transactionId: string | null;
  failureReason: string | null;
  expiresAt: string;
  createdAt: string;
}

// ---------------------------------------------------------------- beneficiaries

export const BENEFICIARY_TYPES = ['BANK', 'CRYPTO', 'SERVICENET'] as const;
export type BeneficiaryType = (typeof BENEFICIARY_TYPES)[number];
/** ACTIVE is payable; BLOCKED (sandbox block) and ARCHIVED are frozen; INACTIVE is reserved (nothing moves a beneficiary there yet). */
export const BENEFICIARY_STATUSES = ['ACTIVE', 'INACTIVE', 'BLOCKED', 'ARCHIVED'] as const;
export type BeneficiaryStatus = (typeof BENEFICIARY_STATUSES)[number];
/** Transfer methods of a bank beneficiary; SEPA needs an IBAN and EUR, ACH a routing number and USD. */
export const BANK_METHODS = ['WIRE', 'SWIFT', 'SEPA', 'ACH', 'FASTER_PAYMENTS'] as const;
export type BankMethod = (typeof BANK_METHODS)[number];

/** `bank` of spec 2.5 as api-decisions §7 fixes it: never the full account number. */
export interface BeneficiaryBankView {
  bankName: string;
  method: BankMethod;
  currency: string;
  swiftCode: string;
  bankCountry: string;
  iban: string | null;
  routingNumber: string | null;
  accountNumberLast4: string;
  bankAddressLine1: string | null;
  bankCity: string | null;
  bankRegion: string | null;
  bankZipCode: string | null;
  intermediaryBankName: string | null;
  intermediarySwiftCode: string | null;
  intermediaryBankAddress: string | null;
}

/** `crypto` of spec 2.5, with the asset the beneficiary is paid in when one was given. */
export interface BeneficiaryCryptoView {
  chainName: string;
  chainDisplayName: string;
  platform: 'EVM' | 'SOLANA' | 'TRON';
  address: string;
  asset: string | null;
}

/**
 * `servicenet` of spec 2.5: the receiving organization as its handle and name read
 * when the beneficiary was created. Never the receiving organization's id or accounts.
 */
export interface BeneficiaryServicenetView {
  handle: string;
  organizationName: string;
}

/** Spec 2.5, plus the api-decisions §7 fields it names only by meaning. Tax ids are never returned. */
export interface BeneficiaryView {
  object: 'beneficiary';
  beneficiaryId: string;
  accountId: string;
  type: BeneficiaryType;
  nickname: string;
  status: BeneficiaryStatus;
  entityType: EntityType | null;
  email: string | null;
  phoneNumber: string | null;
  firstName: string | null;
  lastName: string | null;
  legalName: string | null;
  dateOfBirth: string | null;
  businessName: string | null;
  registrationNumber: string | null;
  country: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  zipCode: string | null;
  taxIdType: string | null;
  tags: string[];
  metadata: Record<string, string>;
  crypto: BeneficiaryCryptoView | null;
  bank: BeneficiaryBankView | null;
  servicenet: BeneficiaryServicenetView | null;
  /** The earlier beneficiary of the same account with the same destination (flagged, not refused). */
  duplicateOf: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a payout reads (internal, never on the API): the details a rail needs, the full account number included. */
export interface PayableBeneficiaryView {
  beneficiaryId: string;
  organizationId: string;
  accountId: string;
  type: BeneficiaryType;
  status: BeneficiaryStatus;
  /** Only an ACTIVE beneficiary may be paid. */
  payable: boolean;
  nickname: string;
  entityType: EntityType | null;
  name: string | null;
  country: string | null;
  /** The bank account with its full number (for the rail) and its masked form (for everything that is kept or shown). */
  bank: (BeneficiaryBankView & { accountNumber: string }) | null;
  crypto: BeneficiaryCryptoView | null;
  /** A SERVICENET beneficiary's receiving organization, its id included (internal: for the ledger's transfer). */
  servicenet: (BeneficiaryServicenetView & { organizationId: string }) | null;
}

// ---------------------------------------------------------------- webhooks

/** Spec 2.10. */
export interface WebhookEndpointView {
  object: 'webhook_endpoint';
  id: string;
  url: string;
  description: string | null;
  disabled: boolean;
  /** Empty means every event type, including types added later. */
  eventTypes: string[];
  createdAt: string;
  updatedAt: string;
}

/** Spec 2.10's deletion result. */
export interface WebhookEndpointDeletionView {
  object: 'webhook_endpoint';
  id: string;
  deleted: true;
}

/** Spec 2.10's secret result. */
export interface WebhookSecretView {
  key: string;
}

/**
 * What the delivery worker needs of an endpoint at an attempt (internal, never on the API): where
 * to send, whether it still takes deliveries, and its signing secrets (current first) sealed
 * with WEBHOOK_SECRET_KEY, so they cross Redis encrypted.
 */
export interface WebhookEndpointTargetView {
  endpointId: string;
  organizationId: string;
  url: string;
  /** False once the endpoint is disabled or deleted: its due deliveries are dropped. */
  active: boolean;
  sealedSecrets: string[];
}

export interface WebhookEndpointDisablingView {
  endpointId: string;
  /** Whether this call disabled it (false: it was disabled or deleted already). */
  disabled: boolean;
}

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'DROPPED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One attempt to deliver a message to an endpoint (GET /v1/webhooks/endpoints/{id}/deliveries). */
export interface WebhookDeliveryAttemptView {
  object: 'webhook_delivery_attempt';
  id: string;
  /** The message's `hook-id`. */
  messageId: string;
  eventType: string;
  /** 1 for the first attempt of the message to this endpoint, counting on through resends. */
  attempt: number;
  attemptedAt: string;
  /** The receiver's HTTP status; null when no answer came (timeout, refused address, connection error). */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed; null on a 2xx. */
  error: string | null;
  /** The first 4 KB of the receiver's answer (UTF-8), or null when it sent none. */
  response: string | null;
}

/** A message put back in the queue for one endpoint (resend, recover). */
export interface WebhookDeliveryView {
  object: 'webhook_delivery';
  messageId: string;
  endpointId: string;
  status: WebhookDeliveryStatus;
  /** When the next attempt is due; null once the delivery is finished. */
  nextAttemptAt: string | null;
}

export interface WebhookRecoveryView {
  object: 'webhook_recovery';
  endpointId: string;
  since: string;
  until: string | null;
  /** Messages whose failed or dropped delivery was queued again. */
  messages: number;
}

// ---------------------------------------------------------------- ledger: trades

/** What `trades.post` answers: the client's TRADE and, when one was paid, the COMMISSION of the same journal entry. */
export interface TradePostingView {
  trade: TransactionView;
  commission: TransactionView | null;
}
