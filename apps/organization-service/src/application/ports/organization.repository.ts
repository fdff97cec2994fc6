import type { CursorPosition } from '@pfs/contracts';
import type { Organization } from '../../domain/organization';

export abstract class OrganizationRepository {
  abstract insert(organization: Organization): Promise<void>;
  abstract findById(organizationId: string): Promise<Organization | null>;
  abstract exists(organizationId: string): Promise<boolean>;
  /**
   * Reads the organization and locks its row until the current unit of work ends, so changes
   * decided from what was read (a verification change, an authorization it grants) are serialized.
   */
  abstract findByIdForUpdate(organizationId: string): Promise<Organization | null>;
  /** The organization's clients, newest first (createdAt, then id), after the cursor position. */
  abstract listClients(parentOrganizationId: string, after: CursorPosition | null, limit: number): Promise<Organization[]>;
  abstract saveVerification(organization: Organization): Promise<void>;
}
