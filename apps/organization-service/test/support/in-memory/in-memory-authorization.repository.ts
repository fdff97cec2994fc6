import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage } from '@pfs/test-doubles';
import { AuthorizationRepository } from '../../../src/application/ports/authorization.repository';
import type { Authorization } from '../../../src/domain/authorization';

/** The AuthorizationRepository contract over a map. */
export class InMemoryAuthorizationRepository extends AuthorizationRepository {
  readonly rows = new Map<string, Authorization>();

  async hasActiveAuthorization(grantorOrganizationId: string, granteeOrganizationId: string): Promise<boolean> {
    return (await this.findActive(grantorOrganizationId, granteeOrganizationId)) !== null;
  }

  async findActive(grantorOrganizationId: string, granteeOrganizationId: string): Promise<Authorization | null> {
    const active = [...this.rows.values()].find(
      (row) => row.grantorOrganizationId === grantorOrganizationId && row.granteeOrganizationId === granteeOrganizationId && row.status === 'ACTIVE',
    );
    return active ?? null;
  }

  async findById(authorizationId: string): Promise<Authorization | null> {
    return this.rows.get(authorizationId) ?? null;
  }

  async insert(authorization: Authorization): Promise<void> {
    this.rows.set(authorization.id, authorization);
  }

  async listInvolving(organizationId: string, after: CursorPosition | null, limit: number): Promise<Authorization[]> {
    const involving = [...this.rows.values()].filter((row) => row.grantorOrganizationId === organizationId || row.granteeOrganizationId === organizationId);
    return newestFirstPage(involving, after, limit);
  }

  async saveRevocation(authorization: Authorization): Promise<Authorization> {
    // The first revocation time wins, as in the table.
    const stored = this.rows.get(authorization.id);
    if (stored?.revokedAt) return stored;
    this.rows.set(authorization.id, authorization);
    return authorization;
  }
}
