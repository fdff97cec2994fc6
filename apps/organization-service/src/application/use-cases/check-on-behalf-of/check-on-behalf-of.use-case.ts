import { Injectable } from '@nestjs/common';
import { OnBehalfOfForbiddenError, OrganizationNotFoundError } from '../../../domain/organization-errors';
import { AuthorizationRepository } from '../../ports/authorization.repository';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { CheckOnBehalfOfQuery } from './check-on-behalf-of.query';

/**
 * api-decisions §3: may the caller act for the target organization? Its creator always may;
 * where the endpoint allows it, so may an organization holding an ACTIVE LOA from the target.
 * An organization never acts "on behalf of" itself: the header names a client.
 */
@Injectable()
export class CheckOnBehalfOfUseCase {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly authorizations: AuthorizationRepository,
  ) {}

  async execute(query: CheckOnBehalfOfQuery): Promise<{ organizationId: string }> {
    const target = await this.organizations.findById(query.targetOrganizationId);
    if (!target) throw new OrganizationNotFoundError(query.targetOrganizationId);
    if (target.isClientOf(query.callerOrganizationId)) return { organizationId: target.id };

    if (query.mode === 'creator') {
      throw new OnBehalfOfForbiddenError(`Only the organization that created ${target.id} can act on its behalf on this endpoint.`);
    }
    if (
      target.id !== query.callerOrganizationId &&
      (await this.authorizations.hasActiveAuthorization(target.id, query.callerOrganizationId))
    ) {
      return { organizationId: target.id };
    }
    throw new OnBehalfOfForbiddenError(
      `Acting on behalf of ${target.id} requires having created it or holding an active authorization (LOA) from it.`,
    );
  }
}
