import { Injectable } from '@nestjs/common';
import type { OrganizationStanding } from '@pfs/contracts';
import { CommandBus, withinCurrentCommand } from '@pfs/messaging';

/**
 * The organization service's own answers, asked over its command queue (services share no
 * tables): what the ledger's copy of standings falls back on (ProjectedOrganizationDirectory).
 * Within a command, the question carries the command's request id and never outlives its
 * deadline; a missing organization service is `ServiceUnavailableError`, so the command fails
 * cleanly before it has written anything.
 */
@Injectable()
export class QueueOrganizationDirectory {
  constructor(private readonly bus: CommandBus) {}

  standing(organizationId: string): Promise<OrganizationStanding> {
    return this.bus.send('organization', 'organization-standing.get', { organizationId }, withinCurrentCommand());
  }
}
