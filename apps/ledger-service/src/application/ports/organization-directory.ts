import type { OrganizationStanding, SubOrgTier } from '@pfs/contracts';

/** What the ledger needs to know about organizations, which the organization service owns. */
export abstract class OrganizationDirectory {
  /** Verification status and event audience, as of now; `organization_not_found` when unknown. */
  abstract standing(organizationId: string): Promise<OrganizationStanding>;
  /** The pricing tier in force now, or null for default pricing. */
  abstract effectiveTier(organizationId: string): Promise<SubOrgTier | null>;
}
