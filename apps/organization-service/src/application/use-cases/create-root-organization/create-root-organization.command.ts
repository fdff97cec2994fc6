import type { VerificationStatus } from '../../../domain/organization';

export interface CreateRootOrganizationCommand {
  name: string;
  /** APPROVED at once when true, else PENDING verification. */
  approved: boolean;
}

export interface CreateRootOrganizationResult {
  organizationId: string;
  /** The primary account's id; the ledger opens it when `organization.created` reaches it. */
  accountId: string;
  verificationStatus: VerificationStatus;
  keyId: string;
  apiKey: string;
}
