import type { OrganizationStanding } from '@pfs/contracts';

/** What the ledger needs to know about organizations, which the organization service owns. */
export abstract class OrganizationDirectory {
  /**
   * Verification status and event audience as the ledger last learned them (its copy, fed by the
   * owner's `organization.standing.updated`; an organization it has never heard of is asked for
   * once); `organization_not_found` when unknown. Behind the owner by at most the relay's lag.
   */
  abstract standing(organizationId: string): Promise<OrganizationStanding>;
  /** The owner's answer, now, which the copy takes too: asked before a refusal rests on the copy. */
  abstract confirmedStanding(organizationId: string): Promise<OrganizationStanding>;
}
