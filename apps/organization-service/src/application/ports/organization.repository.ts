import type { Organization } from '../../domain/organization';

export abstract class OrganizationRepository {
  abstract insert(organization: Organization): Promise<void>;
  abstract findById(organizationId: string): Promise<Organization | null>;
  abstract exists(organizationId: string): Promise<boolean>;
}
