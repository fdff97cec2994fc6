import { Injectable } from '@nestjs/common';
import { Clock, type SubOrgTier } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { InvalidSubOrgTierQueryError } from '../../../domain/sub-org-tier-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { SubOrgTierAssignmentRepository } from '../../ports/sub-org-tier-assignment.repository';
import { SubOrgTierCatalog } from '../../ports/sub-org-tier-catalog';
import type { GetEffectiveSubOrgTierQuery } from './get-effective-sub-org-tier.query';

/** For pricing: the tier in force for an organization at a time, or null for the platform default. */
@Injectable()
export class GetEffectiveSubOrgTierUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly assignments: SubOrgTierAssignmentRepository,
    private readonly catalog: SubOrgTierCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(query: GetEffectiveSubOrgTierQuery): Promise<SubOrgTier | null> {
    const at = query.at === undefined ? this.clock.now() : new Date(query.at);
    if (Number.isNaN(at.getTime())) throw new InvalidSubOrgTierQueryError(`at: must be an ISO 8601 timestamp, got ${query.at}`);
    if (!(await this.organizations.exists(query.organizationId))) throw new OrganizationNotFoundError(query.organizationId);

    const assignment = await this.assignments.inForceAt(query.organizationId, at);
    const key = assignment?.tierKey ?? null;
    const tier = key === null ? undefined : this.catalog.all().find((candidate) => candidate.key === key);
    return tier ? { key: tier.key, label: tier.label, spreadBps: tier.spreadBps, referrerShareBps: tier.referrerShareBps } : null;
  }
}
