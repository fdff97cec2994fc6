import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type AuthorizationView } from '@pfs/contracts';
import { AuthorizationNotFoundError } from '../../../domain/organization-errors';
import { presentAuthorization } from '../../authorization.presenter';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import type { RevokeAuthorizationCommand } from './revoke-authorization.command';

/**
 * DELETE /v1/authorizations/{id}: either party revokes. Idempotent: revoking again answers the
 * same REVOKED authorization with its first revocation time. The on-behalf-of check reads the
 * table on every request, so the grantee loses access at once.
 */
@Injectable()
export class RevokeAuthorizationUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly authorizations: AuthorizationRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: RevokeAuthorizationCommand): Promise<AuthorizationView> {
    return this.unitOfWork.run(async () => {
      const authorization = await this.authorizations.findById(command.authorizationId);
      if (!authorization?.involves(command.organizationId)) throw new AuthorizationNotFoundError(command.authorizationId);
      if (authorization.status === 'REVOKED') return presentAuthorization(authorization);
      return presentAuthorization(await this.authorizations.saveRevocation(authorization.revoke(this.clock.now())));
    });
  }
}
