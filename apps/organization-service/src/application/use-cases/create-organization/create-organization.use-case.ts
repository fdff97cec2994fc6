import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, type OrganizationView, IdGenerator } from '@pfs/contracts';
import { Organization } from '../../../domain/organization';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { presentOrganization } from '../../organization.presenter';
import { OrganizationRepository } from '../../ports/organization.repository';
import { PrimaryAccountOpener } from '../../ports/primary-account-opener';
import type { CreateOrganizationCommand } from './create-organization.command';
import { appendCreated } from '../../organization-events';

/**
 * POST /v1/organizations: a client organization whose creator is the caller. Once the
 * organization and `organization.created` have committed, the ledger opens its primary account
 * before this answers, so the answer's ids work in the very next request; the event opens the
 * account too, should that call fail. Every catalog asset is AVAILABLE to it from the start.
 */
@Injectable()
export class CreateOrganizationUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly primaryAccounts: PrimaryAccountOpener,
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
    const created = await this.unitOfWork.run(async () => {
      // The caller's key was just authenticated, so this only fails for a deleted organization.
      if (!(await this.organizations.exists(command.callerOrganizationId))) {
        throw new OrganizationNotFoundError(command.callerOrganizationId);
      }
      await this.organizations.insert(organization);
      await appendCreated(this.outbox, organization);
      return presentOrganization(organization);
    });
    // After commit, never inside the transaction. Should it fail, the command fails (503); the
    // organization stays stored and `organization.created` opens the account.
    await this.primaryAccounts.open({ organizationId: organization.id, accountId: organization.primaryAccountId });
    return created;
  }
}
