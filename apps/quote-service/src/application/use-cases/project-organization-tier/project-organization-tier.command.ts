import type { SubOrgTier } from '@pfs/contracts';

/** `organization.tier.assigned`, as the organization service numbered it for the organization. */
export interface ProjectOrganizationTierCommand {
  organizationId: string;
  tier: SubOrgTier | null;
  sequence: number;
}
