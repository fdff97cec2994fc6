import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, type AuthorizationView } from '@pfs/contracts';
import { AuthorizationNotFoundError } from '../../../domain/organization-errors';
import { presentAuthorization } from '../../authorization.presenter';
import { standingUpdated } from '../../organization-events';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { RevokeAuthorizationCommand } from './revoke-authorization.command';

/**
 * DELETE /v1/authorizations/{id}: either party revokes. Idempotent: revoking again answers the
 * same REVOKED authorization with its first revocation time. The on-behalf-of check reads the
 * table on every request, so the grantee loses access at once. Revoking the LOA a client gave its
 * creator changes the client's standing: `organization.standing.updated`, written with the
 * client's row locked, like a grant.
 */
@Injectable()
export class RevokeAuthorizationUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly authorizations: AuthorizationRepository,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
  ) {}

  execute(command: RevokeAuthorizationCommand): Promise<AuthorizationView> {
    return this.unitOfWork.run(async () => {
      const authorization = await this.authorizations.findById(command.authorizationId);
      if (!authorization?.involves(command.organizationId)) throw new AuthorizationNotFoundError(command.authorizationId);
      if (authorization.status === 'REVOKED') return presentAuthorization(authorization);
      const grantor = await this.organizations.findByIdForUpdate(authorization.grantorOrganizationId);
      const revoked = await this.authorizations.saveRevocation(authorization.revoke(this.clock.now()));
      if (grantor?.isClientOf(authorization.granteeOrganizationId) && revoked.revokedAt) {
        const stillHolds = await this.authorizations.hasActiveAuthorization(grantor.id, authorization.granteeOrganizationId);
        await this.outbox.append('organization.standing.updated', standingUpdated(grantor.standing(stillHolds), revoked.revokedAt));
      }
      return presentAuthorization(revoked);
    });
  }
}
