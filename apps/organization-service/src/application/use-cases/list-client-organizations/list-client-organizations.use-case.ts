import { Injectable } from '@nestjs/common';
import { buildPage, CursorCodec, type OrganizationView, type PageView } from '@pfs/contracts';
import { presentOrganization } from '../../organization.presenter';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { ListClientOrganizationsQuery } from './list-client-organizations.query';

export const CLIENT_ORGANIZATIONS_LIST = 'organizations';

/** GET /v1/organizations: the caller's clients, newest first. */
@Injectable()
export class ListClientOrganizationsUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async execute(query: ListClientOrganizationsQuery): Promise<PageView<OrganizationView>> {
    const after = query.page.cursor ? this.cursors.decode(CLIENT_ORGANIZATIONS_LIST, query.page.cursor) : null;
    const rows = await this.organizations.listClients(query.callerOrganizationId, after, query.page.limit + 1);
    return buildPage(
      rows,
      query.page.limit,
      this.cursors,
      CLIENT_ORGANIZATIONS_LIST,
      (organization) => ({ createdAt: organization.createdAt.toISOString(), id: organization.id }),
      presentOrganization,
    );
  }
}
