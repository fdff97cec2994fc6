import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { AssignSubOrgTierUseCase } from '../../application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';

@Injectable()
export class AssignSubOrgTierHandler implements CommandHandler<'organization', 'tiers.assign'> {
  readonly command = 'tiers.assign' as const;

  constructor(private readonly useCase: AssignSubOrgTierUseCase) {}

  execute(payload: CommandPayload<'organization', 'tiers.assign'>): Promise<CommandResult<'organization', 'tiers.assign'>> {
    return this.useCase.execute(payload);
  }
}
