import type { OrganizationView } from '@pfs/contracts';
import type { Organization } from '../domain/organization';

export function presentOrganization(organization: Organization): OrganizationView {
  return {
    object: 'organization',
    organizationId: organization.id,
    name: organization.name,
    entityType: organization.entityType,
    country: organization.country,
    email: organization.email,
    verificationStatus: organization.verificationStatus,
    parentOrganizationId: organization.parentOrganizationId,
    referrerOrganizationId: organization.referrerOrganizationId,
    primaryAccountId: organization.primaryAccountId,
    createdAt: organization.createdAt.toISOString(),
  };
}
