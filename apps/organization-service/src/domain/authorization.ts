import type { AuthorizationStatus } from '@pfs/contracts';
import { InvalidAuthorizationError } from './organization-errors';

export interface NewAuthorization {
  id: string;
  grantorOrganizationId: string;
  granteeOrganizationId: string;
  now: Date;
}

/**
 * A Letter of Authorization (LOA): the grantor, signing with its own key, lets the grantee act
 * for it where LOAs are accepted. ACTIVE until revoked; revocation is final and keeps the row.
 */
export class Authorization {
  constructor(
    readonly id: string,
    readonly grantorOrganizationId: string,
    readonly granteeOrganizationId: string,
    readonly createdAt: Date,
    readonly revokedAt: Date | null,
  ) {}

  static grant(input: NewAuthorization): Authorization {
    if (input.grantorOrganizationId === input.granteeOrganizationId) {
      throw new InvalidAuthorizationError('granteeOrganizationId: must be another organization than the caller');
    }
    return new Authorization(input.id, input.grantorOrganizationId, input.granteeOrganizationId, input.now, null);
  }

  get status(): AuthorizationStatus {
    return this.revokedAt === null ? 'ACTIVE' : 'REVOKED';
  }

  /** Either party may see and revoke it; nobody else learns that it exists. */
  involves(organizationId: string): boolean {
    return this.grantorOrganizationId === organizationId || this.granteeOrganizationId === organizationId;
  }

  /** Idempotent: revoking a revoked authorization keeps its first revocation time. */
  revoke(now: Date): Authorization {
    if (this.revokedAt !== null) return this;
    return new Authorization(this.id, this.grantorOrganizationId, this.granteeOrganizationId, this.createdAt, now);
  }
}
