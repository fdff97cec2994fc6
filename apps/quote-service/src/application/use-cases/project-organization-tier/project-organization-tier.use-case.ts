import { Injectable } from '@nestjs/common';
import { OrganizationTiers } from '../../ports/organization-tiers';
import type { ProjectOrganizationTierCommand } from './project-organization-tier.command';

/**
 * Keeps the quote service's copy of an organization's tier in force: the newest event wins,
 * whatever order events arrive in, so replaying every event from the start ends with the same copy.
 */
@Injectable()
export class ProjectOrganizationTierUseCase {
  constructor(private readonly tiers: OrganizationTiers) {}

  async execute(command: ProjectOrganizationTierCommand): Promise<boolean> {
    return this.tiers.apply(command.organizationId, command.tier, command.sequence);
  }
}
