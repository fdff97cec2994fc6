import { Injectable } from '@nestjs/common';
import { AuthorizationRepository } from '../../application/ports/authorization.repository';

/**
 * No organization can sign an LOA yet (POST /v1/authorizations arrives with the authorizations
 * table), so none is active. The persistent repository replaces this binding in
 * organization.providers.ts; the use case does not change.
 */
@Injectable()
export class UnsignedAuthorizationRepository extends AuthorizationRepository {
  hasActiveAuthorization(_grantorOrganizationId: string, _granteeOrganizationId: string): Promise<boolean> {
    return Promise.resolve(false);
  }
}
