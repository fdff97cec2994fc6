import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import type { EventHandler } from '@pfs/messaging';
import { ProjectOrganizationStandingUseCase } from '../../application/use-cases/project-organization-standing/project-organization-standing.use-case';

/** `organization.standing.updated` → the ledger's copy of the organization's standing. */
@Injectable()
export class OrganizationStandingUpdatedSubscriber implements EventHandler<'organization.standing.updated'> {
  readonly event = 'organization.standing.updated' as const;

  constructor(private readonly useCase: ProjectOrganizationStandingUseCase) {}

  async handle(event: EventEnvelope<'organization.standing.updated'>): Promise<void> {
    const { updatedAt: _updatedAt, ...standing } = event.data;
    await this.useCase.execute({ standing, sequence: event.sequence });
  }
}
