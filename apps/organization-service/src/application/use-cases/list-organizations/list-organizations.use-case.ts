import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type OrganizationView, type PageView } from '@pfs/contracts';
import { presentOrganization } from '../../organization.presenter';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { ListOrganizationsQuery } from './list-organizations.query';

export const CLIENT_ORGANIZATIONS_LIST = 'organizations';

/** GET /v1/organizations: the caller's clients, newest first. */
@Injectable()
export class ListOrganizationsUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async execute(query: ListOrganizationsQuery): Promise<PageView<OrganizationView>> {
    return this.cursors.page(
      listIdentity(CLIENT_ORGANIZATIONS_LIST, query.callerOrganizationId),
      query.page,
      (after, take) => this.organizations.listClients(query.callerOrganizationId, after, take),
      presentOrganization,
    );
  }
}
