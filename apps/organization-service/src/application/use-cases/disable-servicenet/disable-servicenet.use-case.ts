import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type ServicenetView } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ServicenetMembershipRepository } from '../../ports/servicenet-membership.repository';
import { presentServicenet } from '../../servicenet.presenter';
import type { DisableServicenetCommand } from './disable-servicenet.command';

/**
 * POST /v1/servicenet/disable: idempotent. Transfers from and to the organization answer
 * `servicenet_not_enabled` from now on; its handle stays reserved for it.
 */
@Injectable()
export class DisableServicenetUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly memberships: ServicenetMembershipRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: DisableServicenetCommand): Promise<ServicenetView> {
    return this.unitOfWork.run(async () => {
      // The organization's row lock orders this against its own enable and handle claims.
      if (!(await this.organizations.findByIdForUpdate(command.organizationId))) throw new OrganizationNotFoundError(command.organizationId);
      const membership = await this.memberships.find(command.organizationId);
      const disabled = membership.disable(this.clock.now());
      if (disabled !== membership) await this.memberships.save(disabled);
      return presentServicenet(disabled);
    });
  }
}
