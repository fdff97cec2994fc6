import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type AuthorizationView, type PageView } from '@pfs/contracts';
import { presentAuthorization } from '../../authorization.presenter';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import type { ListAuthorizationsQuery } from './list-authorizations.query';

export const AUTHORIZATIONS_LIST = 'authorizations';

/** GET /v1/authorizations: those the organization granted and those it received, newest first. */
@Injectable()
export class ListAuthorizationsUseCase {
  constructor(
    private readonly authorizations: AuthorizationRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async execute(query: ListAuthorizationsQuery): Promise<PageView<AuthorizationView>> {
    return this.cursors.page(
      listIdentity(AUTHORIZATIONS_LIST, query.organizationId),
      query.page,
      (after, take) => this.authorizations.listInvolving(query.organizationId, after, take),
      presentAuthorization,
    );
  }
}
