import { Injectable } from '@nestjs/common';
import type { OrganizationStanding, SubOrgTier } from '@pfs/contracts';
import { OrganizationDirectory } from '../../application/ports/organization-directory';
import { OrganizationStandings } from '../../application/ports/organization-standings';
import { OrganizationTiers } from '../../application/ports/organization-tiers';
import { QueueOrganizationDirectory } from './queue-organization-directory';

/**
 * Standings and tiers from the ledger's own copies: a money command or a quote's pricing reads one
 * row instead of a round trip to the organization service. An organization missing from a copy
 * (its event still on the way) is asked for once and remembered; the owner is asked again about a
 * standing only to confirm before a refusal. A tier change reaches the copy within the relay's
 * lag: a quote made in that moment is priced by the tier before it.
 */
@Injectable()
export class ProjectedOrganizationDirectory extends OrganizationDirectory {
  constructor(
    private readonly standings: OrganizationStandings,
    private readonly tiers: OrganizationTiers,
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

  async effectiveTier(organizationId: string): Promise<SubOrgTier | null> {
    const copy = await this.tiers.find(organizationId);
    if (copy !== undefined) return copy;
    const answer = await this.owner.effectiveTier(organizationId);
    await this.tiers.rememberIfAbsent(organizationId, answer);
    return answer;
  }
}
