import { Injectable } from '@nestjs/common';
import type { OrganizationView } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { presentOrganization } from '../../organization.presenter';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { GetOrganizationQuery } from './get-organization.query';

/** The caller itself or one of its clients; any other organization answers as if it did not exist. */
@Injectable()
export class GetOrganizationUseCase {
  constructor(private readonly organizations: OrganizationRepository) {}

  async execute(query: GetOrganizationQuery): Promise<OrganizationView> {
    const organization = await this.organizations.findById(query.organizationId);
    if (!organization?.isVisibleTo(query.callerOrganizationId)) throw new OrganizationNotFoundError(query.organizationId);
    return presentOrganization(organization);
  }
}
