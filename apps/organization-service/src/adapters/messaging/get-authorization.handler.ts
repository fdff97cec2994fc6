import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { GetAuthorizationUseCase } from '../../application/use-cases/get-authorization/get-authorization.use-case';

@Injectable()
export class GetAuthorizationHandler implements CommandHandler<'organization', 'authorizations.get'> {
  readonly command = 'authorizations.get' as const;

  constructor(private readonly useCase: GetAuthorizationUseCase) {}

  execute(payload: CommandPayload<'organization', 'authorizations.get'>): Promise<CommandResult<'organization', 'authorizations.get'>> {
    return this.useCase.execute(payload);
  }
}
