import { ENTITY_TYPES, VERIFICATION_STATUSES, type EntityType, type OrganizationStanding, type VerificationStatus } from '@pfs/contracts';
import { InvalidOrganizationError } from './organization-errors';

export { ENTITY_TYPES, VERIFICATION_STATUSES, type EntityType, type VerificationStatus };

export const MAX_ORGANIZATION_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_VERIFICATION_REASON_LENGTH = 500;

/** Statuses that tell the organization what to fix, so they carry a reason (spec §6.2). */
const STATUSES_WITH_REASON: ReadonlySet<VerificationStatus> = new Set(['ON_HOLD', 'RESUBMISSION_REQUIRED']);
const COUNTRY = /^[A-Z]{2}$/;
// The shape only: the address is confirmed by the customer, not by us.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewClientOrganization {
  id: string;
  primaryAccountId: string;
  name: string;
  entityType: EntityType;
  country: string;
  email: string | null;
  /** The caller of POST /v1/organizations: the client's creator (broker). */
  parentOrganizationId: string;
  now: Date;
}

/** A verification status change: the organization as changed, and the status it left. */
export interface VerificationChange {
  organization: Organization;
  previousStatus: VerificationStatus;
}

export interface NewRootOrganization {
  id: string;
  /** Chosen here, so the ledger can open the account under this id when it hears of the organization. */
  primaryAccountId: string;
  name: string;
  /** Operators may create an organization already verified (sandbox demos, onboarding done elsewhere). */
  approved: boolean;
  now: Date;
}

/** A customer of the platform. Root organizations have neither a parent (broker) nor a referrer. */
export class Organization {
  constructor(
    readonly id: string,
    readonly name: string,
    readonly entityType: EntityType | null,
    readonly country: string | null,
    readonly email: string | null,
    readonly verificationStatus: VerificationStatus,
    readonly verificationReason: string | null,
    readonly parentOrganizationId: string | null,
    readonly referrerOrganizationId: string | null,
    readonly primaryAccountId: string,
    readonly createdAt: Date,
    readonly updatedAt: Date,
  ) {}

  /** The broker relation: `caller` created this organization as its client (api-decisions §3). */
  isClientOf(callerOrganizationId: string): boolean {
    return this.parentOrganizationId !== null && this.parentOrganizationId === callerOrganizationId;
  }

  /**
   * What a money-moving service decides on: verification, and who hears of and earns from its
   * transactions. Whether it holds an ACTIVE LOA for its creator is the authorizations' to say.
   */
  standing(parentHoldsActiveLoa: boolean): OrganizationStanding {
    return {
      organizationId: this.id,
      verificationStatus: this.verificationStatus,
      parentOrganizationId: this.parentOrganizationId,
      parentHoldsActiveLoa: this.parentOrganizationId !== null && parentHoldsActiveLoa,
      referrerOrganizationId: this.referrerOrganizationId,
    };
  }

  /** What GET /v1/organizations/{id} may show the caller: itself or one of its clients. */
  isVisibleTo(callerOrganizationId: string): boolean {
    return this.id === callerOrganizationId || this.isClientOf(callerOrganizationId);
  }

  /**
   * Sets the verification status. Null when the status and its reason are already these: nothing
   * changes and nothing is emitted. ON_HOLD and RESUBMISSION_REQUIRED need a reason; the others
   * take none. A new reason under the same status is a change: it tells the organization what to
   * fix now.
   */
  changeVerification(status: VerificationStatus, reason: string | null, now: Date): VerificationChange | null {
    const trimmed = reason?.trim() ?? null;
    if (STATUSES_WITH_REASON.has(status)) {
      if (!trimmed) throw new InvalidOrganizationError(`reason: is required when status is ${status}`);
      if (trimmed.length > MAX_VERIFICATION_REASON_LENGTH) {
        throw new InvalidOrganizationError(`reason: must be at most ${MAX_VERIFICATION_REASON_LENGTH} characters`);
      }
    } else if (reason !== null) {
      throw new InvalidOrganizationError('reason: is only accepted when status is ON_HOLD or RESUBMISSION_REQUIRED');
    }
    const nextReason = STATUSES_WITH_REASON.has(status) ? trimmed : null;
    if (status === this.verificationStatus && nextReason === this.verificationReason) return null;
    const organization = new Organization(
      this.id,
      this.name,
      this.entityType,
      this.country,
      this.email,
      status,
      nextReason,
      this.parentOrganizationId,
      this.referrerOrganizationId,
      this.primaryAccountId,
      this.createdAt,
      now,
    );
    return { organization, previousStatus: this.verificationStatus };
  }

  /** A client organization (api-decisions §3): created by a broker, PENDING verification. */
  static createClient(input: NewClientOrganization): Organization {
    const email = input.email?.trim() || null;
    if (!COUNTRY.test(input.country)) throw new InvalidOrganizationError('country: must be an ISO 3166-1 alpha-2 code in capitals, e.g. DE');
    if (email !== null && (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email))) {
      throw new InvalidOrganizationError('email: must be an email address');
    }
    return new Organization(
      input.id,
      validName(input.name),
      input.entityType,
      input.country,
      email,
      'PENDING',
      null,
      input.parentOrganizationId,
      null,
      input.primaryAccountId,
      input.now,
      input.now,
    );
  }

  // Referral invites
  /** Sign-up through a referral invite: a root organization (no broker) attributed to its referrer, PENDING. */
  static createReferred(input: {
    id: string;
    primaryAccountId: string;
    name: string;
    email: string;
    referrerOrganizationId: string;
    now: Date;
  }): Organization {
    return new Organization(
      input.id,
      validName(input.name),
      null,
      null,
      input.email,
      'PENDING',
      null,
      null,
      input.referrerOrganizationId,
      input.primaryAccountId,
      input.now,
      input.now,
    );
  }

  static createRoot(input: NewRootOrganization): Organization {
    return new Organization(
      input.id,
      validName(input.name),
      null,
      null,
      null,
      input.approved ? 'APPROVED' : 'PENDING',
      null,
      null,
      null,
      input.primaryAccountId,
      input.now,
      input.now,
    );
  }
}

function validName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new InvalidOrganizationError('name: must not be empty');
  if (name.length > MAX_ORGANIZATION_NAME_LENGTH) {
    throw new InvalidOrganizationError(`name: must be at most ${MAX_ORGANIZATION_NAME_LENGTH} characters`);
  }
  return name;
}
