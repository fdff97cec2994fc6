import { Injectable } from '@nestjs/common';
import { PrismaTransactionHost } from '@pfs/persistence';
import { SubOrgTierAssignmentRepository } from '../../application/ports/sub-org-tier-assignment.repository';
import type { SubOrgTierAssignment } from '../../domain/sub-org-tier';

interface AssignmentRow {
  organization_id: string;
  tier_key: string | null;
  assigned_at: Date;
  assigned_by: string;
}

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
    // Asked for every quote (through the ledger's fees.get): raw SQL spares the query compiler.
    // The id breaks ties between assignments made in the same millisecond: the later insert wins.
    const [row] = await this.host.client.$queryRaw<AssignmentRow[]>`
      SELECT organization_id, tier_key, assigned_at, assigned_by FROM "organization"."sub_org_tier_assignments"
      WHERE organization_id = ${organizationId} AND assigned_at <= ${at}
      ORDER BY assigned_at DESC, id DESC LIMIT 1`;
    return row ? { organizationId: row.organization_id, tierKey: row.tier_key, assignedAt: row.assigned_at, assignedBy: row.assigned_by } : null;
  }
}
