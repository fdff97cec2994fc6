import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, IdGenerator } from '@pfs/contracts';
import { Organization } from '../../../domain/organization';
import { ApiKeyIssuer } from '../../api-key.issuer';
import { OrganizationRepository } from '../../ports/organization.repository';
import { PrimaryAccountOpener } from '../../ports/primary-account-opener';
import { PrimaryAccountNotOpenedError, type CreateRootOrganizationCommand, type CreateRootOrganizationResult } from './create-root-organization.command';
import { appendCreated } from '../../organization-events';

/**
 * Operator bootstrap (api-decisions §3): an organization with no parent, its first API key and
 * the `organization.created` event, all in one transaction, so there is never an organization
 * without a key or an account that the ledger does not hear about. Then, after commit, the ledger
 * opens the primary account, so the key works on it as soon as the operator hands it over.
 */
@Injectable()
export class CreateRootOrganizationUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly keys: ApiKeyIssuer,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly primaryAccounts: PrimaryAccountOpener,
  ) {}

  async execute(command: CreateRootOrganizationCommand): Promise<CreateRootOrganizationResult> {
    const organization = Organization.createRoot({
      id: this.ids.next('organization'),
      primaryAccountId: this.ids.next('account'),
      name: command.name,
      approved: command.approved,
      now: this.clock.now(),
    });
    const created = await this.unitOfWork.run(async (): Promise<CreateRootOrganizationResult> => {
      await this.organizations.insert(organization);
      const key = await this.keys.issue(organization.id);
      await appendCreated(this.outbox, organization);
      return {
        organizationId: organization.id,
        accountId: organization.primaryAccountId,
        verificationStatus: organization.verificationStatus,
        keyId: key.keyId,
        apiKey: key.apiKey,
      };
    });
    // After commit, never inside the transaction. A failure keeps what was created (its key is
    // shown only once) in the error; the event opens the account later.
    try {
      await this.primaryAccounts.open({ organizationId: organization.id, accountId: organization.primaryAccountId });
    } catch (error) {
      throw new PrimaryAccountNotOpenedError(created, error);
    }
    return created;
  }
}
