import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { RevokeAuthorizationUseCase } from '../../application/use-cases/revoke-authorization/revoke-authorization.use-case';

@Injectable()
export class RevokeAuthorizationHandler implements CommandHandler<'organization', 'authorizations.revoke'> {
  readonly command = 'authorizations.revoke' as const;

  constructor(private readonly useCase: RevokeAuthorizationUseCase) {}

  execute(payload: CommandPayload<'organization', 'authorizations.revoke'>): Promise<CommandResult<'organization', 'authorizations.revoke'>> {
    return this.useCase.execute(payload);
  }
}
