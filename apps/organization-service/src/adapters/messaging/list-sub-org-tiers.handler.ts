import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { ListSubOrgTiersUseCase } from '../../application/use-cases/list-sub-org-tiers/list-sub-org-tiers.use-case';

@Injectable()
export class ListSubOrgTiersHandler implements CommandHandler<'organization', 'tiers.list'> {
  readonly command = 'tiers.list' as const;

  constructor(private readonly useCase: ListSubOrgTiersUseCase) {}

  execute(payload: CommandPayload<'organization', 'tiers.list'>): Promise<CommandResult<'organization', 'tiers.list'>> {
    return this.useCase.execute(payload);
  }
}
