import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { ListAuthorizationsUseCase } from '../../application/use-cases/list-authorizations/list-authorizations.use-case';

@Injectable()
export class ListAuthorizationsHandler implements CommandHandler<'organization', 'authorizations.list'> {
  readonly command = 'authorizations.list' as const;

  constructor(private readonly useCase: ListAuthorizationsUseCase) {}

  execute(payload: CommandPayload<'organization', 'authorizations.list'>): Promise<CommandResult<'organization', 'authorizations.list'>> {
    return this.useCase.execute(payload);
  }
}
