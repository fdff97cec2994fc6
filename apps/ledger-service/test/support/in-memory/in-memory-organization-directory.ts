import { DomainError, type OrganizationStanding } from '@pfs/contracts';
import { OrganizationDirectory } from '../../../src/application/ports/organization-directory';

/** The organization service's answers, as the test sets them. */
export class InMemoryOrganizationDirectory extends OrganizationDirectory {
  private readonly standings = new Map<string, OrganizationStanding>();

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

  async standing(organizationId: string): Promise<OrganizationStanding> {
    const standing = this.standings.get(organizationId);
    if (!standing) throw new DomainError('organization_not_found', `No organization ${organizationId} was found.`);
    return standing;
  }

  /** The same answers: in memory, the copy and the owner never differ. */
  confirmedStanding(organizationId: string): Promise<OrganizationStanding> {
    return this.standing(organizationId);
  }
}
