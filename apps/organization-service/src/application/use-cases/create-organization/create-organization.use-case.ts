import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, type OrganizationView, IdGenerator } from '@pfs/contracts';
import { Organization } from '../../../domain/organization';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { presentOrganization } from '../../organization.presenter';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { CreateOrganizationCommand } from './create-organization.command';
import { organizationCreated } from '../../organization-events';

/**
 * POST /v1/organizations: a client organization whose creator is the caller. The ledger opens
 * its primary account when `organization.created`, written in the same transaction, reaches it.
 * Every catalog asset is AVAILABLE to it from the start (nothing is granted yet).
 */
@Injectable()
export class CreateOrganizationUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateOrganizationCommand): Promise<OrganizationView> {
    const organization = Organization.createClient({
      id: this.ids.next('organization'),
      primaryAccountId: this.ids.next('account'),
      name: command.name,
      entityType: command.entityType,
      country: command.country,
      email: command.email,
      parentOrganizationId: command.callerOrganizationId,
      now: this.clock.now(),
    });
    return this.unitOfWork.run(async () => {
      // The caller's key was just authenticated, so this only fails for a deleted organization.
      if (!(await this.organizations.exists(command.callerOrganizationId))) {
        throw new OrganizationNotFoundError(command.callerOrganizationId);
      }
      await this.organizations.insert(organization);
      await this.outbox.append('organization.created', organizationCreated(organization));
      return presentOrganization(organization);
    });
  }
}
