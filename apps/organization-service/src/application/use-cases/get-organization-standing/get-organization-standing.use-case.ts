import { Injectable } from '@nestjs/common';
import type { OrganizationStanding } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { GetOrganizationStandingQuery } from './get-organization-standing.query';

/**
 * What a money-moving service asks before it acts for an organization: may it (verification),
 * and who hears about it (spec 6.4: the creator receives transaction events only under an ACTIVE LOA),
 * and who earns a trade's commission (the creator, else the referrer).
 * Read fresh on every call: the ledger asks when its own copy (fed by `organization.standing.updated`)
 * has no row yet, and before it refuses on what its copy says.
 */
@Injectable()
export class GetOrganizationStandingUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly authorizations: AuthorizationRepository,
  ) {}

  async execute(query: GetOrganizationStandingQuery): Promise<OrganizationStanding> {
    const organization = await this.organizations.findById(query.organizationId);
    if (!organization) throw new OrganizationNotFoundError(query.organizationId);
    const parent = organization.parentOrganizationId;
    return organization.standing(parent ? await this.authorizations.hasActiveAuthorization(organization.id, parent) : false);
  }
}
