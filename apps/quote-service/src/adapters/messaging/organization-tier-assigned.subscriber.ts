import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import type { EventHandler } from '@pfs/messaging';
import { ProjectOrganizationTierUseCase } from '../../application/use-cases/project-organization-tier/project-organization-tier.use-case';

/** `organization.tier.assigned` → the quote service's copy of the organization's tier in force. */
@Injectable()
export class OrganizationTierAssignedSubscriber implements EventHandler<'organization.tier.assigned'> {
  readonly event = 'organization.tier.assigned' as const;

  constructor(private readonly useCase: ProjectOrganizationTierUseCase) {}

  async handle(event: EventEnvelope<'organization.tier.assigned'>): Promise<void> {
    await this.useCase.execute({ organizationId: event.data.organizationId, tier: event.data.tier, sequence: event.sequence });
  }
}
