import type { VerificationStatus } from '../../../domain/organization';

export interface SetVerificationStatusCommand {
  callerOrganizationId: string;
  /** The caller itself or one of its clients. */
  organizationId: string;
  status: VerificationStatus;
  /** Required for ON_HOLD and RESUBMISSION_REQUIRED, refused for the others. */
  reason: string | null;
}
