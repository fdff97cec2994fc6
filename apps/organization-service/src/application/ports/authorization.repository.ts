import type { CursorPosition } from '@pfs/contracts';
import type { Authorization } from '../../domain/authorization';

/** Letters of Authorization (LOA) a client organization has signed for another organization. */
export abstract class AuthorizationRepository {
  /** Whether `grantor` has granted `grantee` an authorization that is ACTIVE now. */
  abstract hasActiveAuthorization(grantorOrganizationId: string, granteeOrganizationId: string): Promise<boolean>;
  abstract findActive(grantorOrganizationId: string, granteeOrganizationId: string): Promise<Authorization | null>;
  abstract findById(authorizationId: string): Promise<Authorization | null>;
  abstract insert(authorization: Authorization): Promise<void>;
  /** Those the organization granted or received, newest first (createdAt, then id), after the cursor position. */
  abstract listInvolving(organizationId: string, after: CursorPosition | null, limit: number): Promise<Authorization[]>;
  /** Persists a revocation; the first revocation time wins if two race. */
  abstract saveRevocation(authorization: Authorization): Promise<Authorization>;
}
