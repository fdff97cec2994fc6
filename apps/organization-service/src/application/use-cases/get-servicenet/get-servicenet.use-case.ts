import { Injectable } from '@nestjs/common';
import type { ServicenetView } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ServicenetMembershipRepository } from '../../ports/servicenet-membership.repository';
import { presentServicenet } from '../../servicenet.presenter';
import type { GetServicenetQuery } from './get-servicenet.query';

/** GET /v1/servicenet, and the ledger's question before a transfer: answered whether servicenet is on or off. */
@Injectable()
export class GetServicenetUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly memberships: ServicenetMembershipRepository,
  ) {}

  async execute(query: GetServicenetQuery): Promise<ServicenetView> {
    if (!(await this.organizations.exists(query.organizationId))) throw new OrganizationNotFoundError(query.organizationId);
    return presentServicenet(await this.memberships.find(query.organizationId));
  }
}
