import type { VerificationStatus } from '../../../domain/organization';

export interface CreateRootOrganizationCommand {
  name: string;
  /** APPROVED at once when true, else PENDING verification. */
  approved: boolean;
}

export interface CreateRootOrganizationResult {
  organizationId: string;
  /** The primary account's id: open on the ledger when this is returned. */
  accountId: string;
  verificationStatus: VerificationStatus;
  keyId: string;
  apiKey: string;
}

/**
 * The organization and its key were stored but the ledger did not confirm its primary account:
 * the operator still gets the key (shown only once), and `organization.created` opens the account
 * once the organization service relays it.
 */
export class PrimaryAccountNotOpenedError extends Error {
  override readonly name = 'PrimaryAccountNotOpenedError';

  constructor(
    readonly created: CreateRootOrganizationResult,
    cause: unknown,
  ) {
    super(`the primary account ${created.accountId} of ${created.organizationId} is not open yet: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
