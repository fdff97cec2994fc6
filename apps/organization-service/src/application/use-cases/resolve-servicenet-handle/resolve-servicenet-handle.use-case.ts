import { Injectable } from '@nestjs/common';
import type { ServicenetHandleResolution } from '@pfs/contracts';
import { SERVICENET_HANDLE_PATTERN } from '../../../domain/servicenet';
import { ServicenetHandleNotFoundError } from '../../../domain/servicenet-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ServicenetMembershipRepository } from '../../ports/servicenet-membership.repository';
import type { ResolveServicenetHandleQuery } from './resolve-servicenet-handle.query';

/**
 * Internal (the beneficiary service): the organization holding a handle, in any case, with its
 * name and whether it is on servicenet now. `servicenet_handle_not_found` when no one holds it.
 */
@Injectable()
export class ResolveServicenetHandleUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly memberships: ServicenetMembershipRepository,
  ) {}

  async execute(query: ResolveServicenetHandleQuery): Promise<ServicenetHandleResolution> {
    const handle = query.handle.trim().toLowerCase();
    const membership = SERVICENET_HANDLE_PATTERN.test(handle) ? await this.memberships.findByHandle(handle) : null;
    const organization = membership ? await this.organizations.findById(membership.organizationId) : null;
    if (!membership || !organization) throw new ServicenetHandleNotFoundError(query.handle);
    return { organizationId: organization.id, organizationName: organization.name, handle, enabled: membership.enabled };
  }
}
