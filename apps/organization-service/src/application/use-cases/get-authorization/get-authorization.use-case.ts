import { Injectable } from '@nestjs/common';
import type { AuthorizationView } from '@pfs/contracts';
import { AuthorizationNotFoundError } from '../../../domain/organization-errors';
import { presentAuthorization } from '../../authorization.presenter';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import type { GetAuthorizationQuery } from './get-authorization.query';

/** Either party may read an authorization; to anyone else it does not exist. */
@Injectable()
export class GetAuthorizationUseCase {
  constructor(private readonly authorizations: AuthorizationRepository) {}

  async execute(query: GetAuthorizationQuery): Promise<AuthorizationView> {
    const authorization = await this.authorizations.findById(query.authorizationId);
    if (!authorization?.involves(query.organizationId)) throw new AuthorizationNotFoundError(query.authorizationId);
    return presentAuthorization(authorization);
  }
}
