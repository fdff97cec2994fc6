import { Injectable } from '@nestjs/common';
import { OrganizationStandings } from '../../ports/organization-standings';
import type { ProjectOrganizationStandingCommand } from './project-organization-standing.command';

/**
 * Keeps the ledger's copy of an organization's standing: the newest event wins, whatever order
 * events arrive in, so replaying every event from the start ends with the same copy.
 */
@Injectable()
export class ProjectOrganizationStandingUseCase {
  constructor(private readonly standings: OrganizationStandings) {}

  async execute(command: ProjectOrganizationStandingCommand): Promise<boolean> {
    return this.standings.apply(command.standing, command.sequence);
  }
}
