import type { AuthorizationView } from '@pfs/contracts';
import type { Authorization } from '../domain/authorization';

export function presentAuthorization(authorization: Authorization): AuthorizationView {
  return {
    object: 'authorization',
    authorizationId: authorization.id,
    grantorOrganizationId: authorization.grantorOrganizationId,
    granteeOrganizationId: authorization.granteeOrganizationId,
    status: authorization.status,
    createdAt: authorization.createdAt.toISOString(),
    revokedAt: authorization.revokedAt?.toISOString() ?? null,
  };
}
