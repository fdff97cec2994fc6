import type { EventContract } from '@pfs/contracts';
import type { Organization } from '../domain/organization';

/** The `organization.created` payload, the same whichever way an organization came to be. */
export function organizationCreated(organization: Organization): EventContract['organization.created'] {
  return {
    organizationId: organization.id,
    primaryAccountId: organization.primaryAccountId,
    name: organization.name,
    parentOrganizationId: organization.parentOrganizationId,
    referrerOrganizationId: organization.referrerOrganizationId,
    createdAt: organization.createdAt.toISOString(),
  };
}
