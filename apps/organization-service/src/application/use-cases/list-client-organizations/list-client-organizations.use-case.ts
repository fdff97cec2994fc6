import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type OrganizationView, type PageView } from '@pfs/contracts';
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
    return this.cursors.page(
      listIdentity(CLIENT_ORGANIZATIONS_LIST, query.callerOrganizationId),
      query.page,
      (after, take) => this.organizations.listClients(query.callerOrganizationId, after, take),
      presentOrganization,
    );
  }
}
