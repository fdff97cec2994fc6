import { InvalidOrganizationError } from './organization-errors';

export const VERIFICATION_STATUSES = ['APPROVED', 'ON_HOLD', 'PENDING', 'RESUBMISSION_REQUIRED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export type EntityType = 'INDIVIDUAL' | 'BUSINESS';

export const MAX_ORGANIZATION_NAME_LENGTH = 200;

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

  static createRoot(input: NewRootOrganization): Organization {
    const name = input.name.trim();
    if (!name) throw new InvalidOrganizationError('name: must not be empty');
    if (name.length > MAX_ORGANIZATION_NAME_LENGTH) {
      throw new InvalidOrganizationError(`name: must be at most ${MAX_ORGANIZATION_NAME_LENGTH} characters`);
    }
    return new Organization(
      input.id,
      name,
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
