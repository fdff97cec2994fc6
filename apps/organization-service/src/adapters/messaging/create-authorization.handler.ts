import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { CreateAuthorizationUseCase } from '../../application/use-cases/create-authorization/create-authorization.use-case';

@Injectable()
export class CreateAuthorizationHandler implements CommandHandler<'organization', 'authorizations.create'> {
  readonly command = 'authorizations.create' as const;

  constructor(private readonly useCase: CreateAuthorizationUseCase) {}

  execute(payload: CommandPayload<'organization', 'authorizations.create'>): Promise<CommandResult<'organization', 'authorizations.create'>> {
    return this.useCase.execute(payload);
  }
}
