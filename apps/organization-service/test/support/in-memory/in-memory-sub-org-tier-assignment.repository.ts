import { SubOrgTierAssignmentRepository } from '../../../src/application/ports/sub-org-tier-assignment.repository';
import type { SubOrgTierAssignment } from '../../../src/domain/sub-org-tier';

/** The SubOrgTierAssignmentRepository contract: an append-only history per organization. */
export class InMemorySubOrgTierAssignmentRepository extends SubOrgTierAssignmentRepository {
  readonly history: SubOrgTierAssignment[] = [];

  async append(assignment: SubOrgTierAssignment): Promise<void> {
    this.history.push(assignment);
  }

  async inForceAt(organizationId: string, at: Date): Promise<SubOrgTierAssignment | null> {
    const made = this.history.filter((row) => row.organizationId === organizationId && row.assignedAt.getTime() <= at.getTime());
    return made.at(-1) ?? null;
  }
}
