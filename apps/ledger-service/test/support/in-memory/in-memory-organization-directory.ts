import { DomainError, type OrganizationStanding, type SubOrgTier } from '@pfs/contracts';
import { OrganizationDirectory } from '../../../src/application/ports/organization-directory';

/** The organization service's answers, as the test sets them. */
export class InMemoryOrganizationDirectory extends OrganizationDirectory {
  private readonly standings = new Map<string, OrganizationStanding>();
  private readonly tiers = new Map<string, SubOrgTier>();

  set(standing: Partial<OrganizationStanding> & { organizationId: string }): void {
    this.standings.set(standing.organizationId, {
      verificationStatus: 'APPROVED',
      parentOrganizationId: null,
      parentHoldsActiveLoa: false,
      referrerOrganizationId: null,
      ...this.standings.get(standing.organizationId),
      ...standing,
    });
  }

  setTier(organizationId: string, tier: SubOrgTier | null): void {
    if (tier) this.tiers.set(organizationId, tier);
    else this.tiers.delete(organizationId);
  }

  async standing(organizationId: string): Promise<OrganizationStanding> {
    const standing = this.standings.get(organizationId);
    if (!standing) throw new DomainError('organization_not_found', `No organization ${organizationId} was found.`);
    return standing;
  }

  /** The same answers: in memory, the copy and the owner never differ. */
  confirmedStanding(organizationId: string): Promise<OrganizationStanding> {
    return this.standing(organizationId);
  }

  async effectiveTier(organizationId: string): Promise<SubOrgTier | null> {
    return this.tiers.get(organizationId) ?? null;
  }
}
