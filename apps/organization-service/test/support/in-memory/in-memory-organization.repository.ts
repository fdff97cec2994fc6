import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage } from '@pfs/test-doubles';
import { OrganizationRepository } from '../../../src/application/ports/organization.repository';
import type { Organization } from '../../../src/domain/organization';

/** The OrganizationRepository contract over a map, for use-case tests (one caller: nothing to lock). */
export class InMemoryOrganizationRepository extends OrganizationRepository {
  readonly rows = new Map<string, Organization>();

  constructor(organizations: readonly Organization[] = []) {
    super();
    for (const organization of organizations) this.rows.set(organization.id, organization);
  }

  async insert(organization: Organization): Promise<void> {
    if (this.rows.has(organization.id)) throw new Error(`duplicate organization ${organization.id}`);
    this.rows.set(organization.id, organization);
  }

  async findById(organizationId: string): Promise<Organization | null> {
    return this.rows.get(organizationId) ?? null;
  }

  async exists(organizationId: string): Promise<boolean> {
    return this.rows.has(organizationId);
  }

  findByIdForUpdate(organizationId: string): Promise<Organization | null> {
    return this.findById(organizationId);
  }

  async listClients(parentOrganizationId: string, after: CursorPosition | null, limit: number): Promise<Organization[]> {
    return newestFirstPage([...this.rows.values()].filter((row) => row.parentOrganizationId === parentOrganizationId), after, limit);
  }

  async saveVerification(organization: Organization): Promise<void> {
    this.rows.set(organization.id, organization);
  }
}
