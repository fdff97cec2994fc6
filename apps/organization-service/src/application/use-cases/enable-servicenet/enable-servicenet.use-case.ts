import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type ServicenetView } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ServicenetMembershipRepository } from '../../ports/servicenet-membership.repository';
import { presentServicenet } from '../../servicenet.presenter';
import type { EnableServicenetCommand } from './enable-servicenet.command';

/** POST /v1/servicenet/enable: idempotent; a handle claimed before is kept. */
@Injectable()
export class EnableServicenetUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly memberships: ServicenetMembershipRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: EnableServicenetCommand): Promise<ServicenetView> {
    return this.unitOfWork.run(async () => {
      // The organization's row lock orders this against its own disable and handle claims.
      if (!(await this.organizations.findByIdForUpdate(command.organizationId))) throw new OrganizationNotFoundError(command.organizationId);
      const membership = await this.memberships.find(command.organizationId);
      const enabled = membership.enable(this.clock.now());
      if (enabled !== membership) await this.memberships.save(enabled);
      return presentServicenet(enabled);
    });
  }
}
