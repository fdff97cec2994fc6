import type { OrganizationStanding } from '@pfs/contracts';

/** `organization.standing.updated`, as the organization service numbered it for the organization. */
export interface ProjectOrganizationStandingCommand {
  standing: OrganizationStanding;
  sequence: number;
}
