import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { GetEffectiveSubOrgTierUseCase } from '../../application/use-cases/get-effective-sub-org-tier/get-effective-sub-org-tier.use-case';

@Injectable()
export class GetEffectiveSubOrgTierHandler implements CommandHandler<'organization', 'tiers.effective'> {
  readonly command = 'tiers.effective' as const;

  constructor(private readonly useCase: GetEffectiveSubOrgTierUseCase) {}

  execute(payload: CommandPayload<'organization', 'tiers.effective'>): Promise<CommandResult<'organization', 'tiers.effective'>> {
    return this.useCase.execute(payload);
  }
}
