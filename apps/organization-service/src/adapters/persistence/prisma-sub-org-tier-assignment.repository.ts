import { Injectable } from '@nestjs/common';
import { PrismaTransactionHost } from '@pfs/persistence';
import { SubOrgTierAssignmentRepository } from '../../application/ports/sub-org-tier-assignment.repository';
import type { SubOrgTierAssignment } from '../../domain/sub-org-tier';

@Injectable()
export class PrismaSubOrgTierAssignmentRepository extends SubOrgTierAssignmentRepository {
  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async append(assignment: SubOrgTierAssignment): Promise<void> {
    // The organization was read (and locked) first: a failure here is a defect, not a domain case.
    await this.host.client.subOrgTierAssignment.create({
      data: {
        organizationId: assignment.organizationId,
        tierKey: assignment.tierKey,
        assignedAt: assignment.assignedAt,
        assignedBy: assignment.assignedBy,
      },
    });
  }

  async inForceAt(organizationId: string, at: Date): Promise<SubOrgTierAssignment | null> {
    // The id breaks ties between assignments made in the same millisecond: the later insert wins.
    const row = await this.host.client.subOrgTierAssignment.findFirst({
      where: { organizationId, assignedAt: { lte: at } },
      orderBy: [{ assignedAt: 'desc' }, { id: 'desc' }],
    });
    return row
      ? { organizationId: row.organizationId, tierKey: row.tierKey, assignedAt: row.assignedAt, assignedBy: row.assignedBy }
      : null;
  }
}
