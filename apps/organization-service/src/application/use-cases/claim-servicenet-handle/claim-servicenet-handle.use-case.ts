import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type ServicenetView } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { normalizeHandle } from '../../../domain/servicenet';
import { ServicenetHandleTakenError } from '../../../domain/servicenet-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ServicenetMembershipRepository } from '../../ports/servicenet-membership.repository';
import { presentServicenet } from '../../servicenet.presenter';
import type { ClaimServicenetHandleCommand } from './claim-servicenet-handle.command';

/**
 * PUT /v1/servicenet/handle: claims a handle, or changes the organization's handle (the old one
 * is released). Unique without regard to case: stored lower-cased under a unique index, which
 * also settles two organizations claiming one handle at once (`servicenet_handle_taken`).
 * Claiming the handle one already holds is a no-op.
 */
@Injectable()
export class ClaimServicenetHandleUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly memberships: ServicenetMembershipRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: ClaimServicenetHandleCommand): Promise<ServicenetView> {
    const handle = normalizeHandle(command.handle);
    return this.unitOfWork.run(async () => {
      if (!(await this.organizations.findByIdForUpdate(command.organizationId))) throw new OrganizationNotFoundError(command.organizationId);
      const membership = await this.memberships.find(command.organizationId);
      const claimed = membership.claimHandle(handle, this.clock.now());
      if (claimed === membership) return presentServicenet(membership);
      // Answers the common case without a failed write; the unique index decides a race.
      const holder = await this.memberships.findByHandle(handle);
      if (holder && holder.organizationId !== command.organizationId) throw new ServicenetHandleTakenError(handle);
      await this.memberships.save(claimed);
      return presentServicenet(claimed);
    });
  }
}
