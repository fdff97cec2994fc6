import { Injectable } from '@nestjs/common';
import { buildPage, CursorCodec, type AuthorizationView, type PageView } from '@pfs/contracts';
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
    const after = query.page.cursor ? this.cursors.decode(AUTHORIZATIONS_LIST, query.page.cursor) : null;
    const rows = await this.authorizations.listInvolving(query.organizationId, after, query.page.limit + 1);
    return buildPage(
      rows,
      query.page.limit,
      this.cursors,
      AUTHORIZATIONS_LIST,
      (authorization) => ({ createdAt: authorization.createdAt.toISOString(), id: authorization.id }),
      presentAuthorization,
    );
  }
}
