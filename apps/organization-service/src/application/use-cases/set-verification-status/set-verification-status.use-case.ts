import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, type OrganizationView } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { standingUpdated } from '../../organization-events';
import { presentOrganization } from '../../organization.presenter';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { SetVerificationStatusCommand } from './set-verification-status.command';

/**
 * Sandbox verification (api-decisions §3): sets the status of the caller or its client. A change
 * writes `organization.verification.updated` and `organization.standing.updated` in the same
 * transaction; the same status again changes nothing and emits nothing. The row is locked, so two
 * concurrent changes each see the status the other left and every event's previous_status is true.
 */
@Injectable()
export class SetVerificationStatusUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly authorizations: AuthorizationRepository,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
  ) {}

  execute(command: SetVerificationStatusCommand): Promise<OrganizationView> {
    return this.unitOfWork.run(async () => {
      const organization = await this.organizations.findByIdForUpdate(command.organizationId);
      if (!organization?.isVisibleTo(command.callerOrganizationId)) throw new OrganizationNotFoundError(command.organizationId);

      const now = this.clock.now();
      const change = organization.changeVerification(command.status, command.reason, now);
      if (!change) return presentOrganization(organization);

      const changed = change.organization;
      await this.organizations.saveVerification(changed);
      const parent = changed.parentOrganizationId;
      const parentHoldsActiveLoa = parent ? await this.authorizations.hasActiveAuthorization(changed.id, parent) : false;
      await this.outbox.append(
        'organization.verification.updated',
        {
          object: 'organization',
          organization_id: changed.id,
          status: changed.verificationStatus,
          previous_status: change.previousStatus,
          reason: changed.verificationReason,
          occurred_at: now.toISOString(),
        },
        { organizationId: changed.id, parentOrganizationId: parent, parentHoldsActiveLoa },
      );
      await this.outbox.append('organization.standing.updated', standingUpdated(changed.standing(parentHoldsActiveLoa), now));
      return presentOrganization(changed);
    });
  }
}
