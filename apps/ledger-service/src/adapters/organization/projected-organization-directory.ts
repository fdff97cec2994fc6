import { Injectable } from '@nestjs/common';
import type { OrganizationStanding } from '@pfs/contracts';
import { OrganizationDirectory } from '../../application/ports/organization-directory';
import { OrganizationStandings } from '../../application/ports/organization-standings';
import { QueueOrganizationDirectory } from './queue-organization-directory';

/**
 * Standings from the ledger's own copy: a money command reads one row instead of a round trip to
 * the organization service. An organization missing from the copy (its event still on the way)
 * is asked for once and remembered; the owner is asked again only to confirm before a refusal.
 */
@Injectable()
export class ProjectedOrganizationDirectory extends OrganizationDirectory {
  constructor(
    private readonly standings: OrganizationStandings,
    private readonly owner: QueueOrganizationDirectory,
  ) {
    super();
  }

  async standing(organizationId: string): Promise<OrganizationStanding> {
    return (await this.standings.find(organizationId)) ?? this.confirmedStanding(organizationId);
  }

  async confirmedStanding(organizationId: string): Promise<OrganizationStanding> {
    const answer = await this.owner.standing(organizationId);
    await this.standings.remember(answer);
    return answer;
  }
}
