import type { SubOrgTierAssignment } from '../../domain/sub-org-tier';

export abstract class SubOrgTierAssignmentRepository {
  abstract append(assignment: SubOrgTierAssignment): Promise<void>;
  /** The latest assignment made at or before `at`, or null when the organization never had one by then. */
  abstract inForceAt(organizationId: string, at: Date): Promise<SubOrgTierAssignment | null>;
}
