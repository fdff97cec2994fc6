import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { ListClientOrganizationsUseCase } from '../../application/use-cases/list-client-organizations/list-client-organizations.use-case';

@Injectable()
export class ListOrganizationsHandler implements CommandHandler<'organization', 'organizations.list'> {
  readonly command = 'organizations.list' as const;

  constructor(private readonly useCase: ListClientOrganizationsUseCase) {}

  execute(payload: CommandPayload<'organization', 'organizations.list'>): Promise<CommandResult<'organization', 'organizations.list'>> {
    return this.useCase.execute(payload);
  }
}
