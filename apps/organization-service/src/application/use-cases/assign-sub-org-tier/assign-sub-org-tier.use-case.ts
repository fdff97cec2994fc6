import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, type SubOrgTierAssignmentView } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { tiersOffered, tierToAssign } from '../../../domain/sub-org-tier';
import { SubOrgTierForbiddenError } from '../../../domain/sub-org-tier-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { SubOrgTierAssignmentRepository } from '../../ports/sub-org-tier-assignment.repository';
import { SubOrgTierCatalog } from '../../ports/sub-org-tier-catalog';
import { presentSubOrgTierAssignment } from '../../sub-org-tier.presenter';
import { OPERATOR_ASSIGNER, type AssignSubOrgTierCommand } from './assign-sub-org-tier.command';

/**
 * Spec 4.2: only the client's creator may set its tier (an LOA is not enough), or the platform's
 * operator (any organization, any tier), at any time from
 * creation on, whatever its verification. Each change is appended with its time, so a quote is
 * priced by the tier in force when it is made and executed trades are untouched. The client's
 * row is locked so concurrent changes are recorded, and their `organization.tier.assigned`
 * numbered, in the order they happen: the ledger prices from its copy of the newest.
 */
@Injectable()
export class AssignSubOrgTierUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly assignments: SubOrgTierAssignmentRepository,
    private readonly catalog: SubOrgTierCatalog,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
  ) {}

  execute(command: AssignSubOrgTierCommand): Promise<SubOrgTierAssignmentView> {
    return this.unitOfWork.run(async () => {
      const organization = await this.organizations.findByIdForUpdate(command.organizationId);
      if (!organization) throw new OrganizationNotFoundError(command.organizationId);
      const caller = command.callerOrganizationId;
      if (caller !== null && !organization.isClientOf(caller)) throw new SubOrgTierForbiddenError(command.organizationId);

      const offered = tiersOffered(this.catalog.all(), caller === null ? null : this.catalog.restrictionFor(caller));
      const tier = tierToAssign(this.catalog.all(), offered, command.tierKey);
      const assignedAt = this.clock.now();
      await this.assignments.append({ organizationId: organization.id, tierKey: tier?.key ?? null, assignedAt, assignedBy: caller ?? OPERATOR_ASSIGNER });
      await this.outbox.append('organization.tier.assigned', {
        organizationId: organization.id,
        tier: tier ? { key: tier.key, label: tier.label, spreadBps: tier.spreadBps, referrerShareBps: tier.referrerShareBps } : null,
        assignedAt: assignedAt.toISOString(),
      });
      return presentSubOrgTierAssignment(organization.id, tier);
    });
  }
}
