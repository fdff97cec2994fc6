import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, type AuthorizationView, IdGenerator } from '@pfs/contracts';
import { Authorization } from '../../../domain/authorization';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { presentAuthorization } from '../../authorization.presenter';
import { standingUpdated } from '../../organization-events';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { CreateAuthorizationCommand } from './create-authorization.command';

export interface CreateAuthorizationResult {
  authorization: AuthorizationView;
  /** False when the grantee already held an ACTIVE authorization from the grantor. */
  created: boolean;
}

/**
 * POST /v1/authorizations: the caller grants the grantee an ACTIVE LOA. A grantee holds at most
 * one ACTIVE authorization per grantor: asking again returns it. The grantor's row is locked, so
 * two concurrent grants cannot both create one. An LOA for the grantor's creator changes the
 * grantor's standing (its creator now hears of its transactions): `organization.standing.updated`.
 */
@Injectable()
export class CreateAuthorizationUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly authorizations: AuthorizationRepository,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateAuthorizationCommand): Promise<CreateAuthorizationResult> {
    const authorization = Authorization.grant({
      id: this.ids.next('authorization'),
      grantorOrganizationId: command.grantorOrganizationId,
      granteeOrganizationId: command.granteeOrganizationId,
      now: this.clock.now(),
    });
    return this.unitOfWork.run(async () => {
      const grantor = await this.organizations.findByIdForUpdate(command.grantorOrganizationId);
      if (!grantor) throw new OrganizationNotFoundError(command.grantorOrganizationId);
      if (!(await this.organizations.exists(command.granteeOrganizationId))) {
        throw new OrganizationNotFoundError(command.granteeOrganizationId);
      }
      const active = await this.authorizations.findActive(command.grantorOrganizationId, command.granteeOrganizationId);
      if (active) return { authorization: presentAuthorization(active), created: false };
      await this.authorizations.insert(authorization);
      if (grantor.isClientOf(command.granteeOrganizationId)) {
        await this.outbox.append('organization.standing.updated', standingUpdated(grantor.standing(true), authorization.createdAt));
      }
      return { authorization: presentAuthorization(authorization), created: true };
    });
  }
}
