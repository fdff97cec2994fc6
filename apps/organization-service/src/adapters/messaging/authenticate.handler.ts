import { Injectable } from '@nestjs/common';
import type { CommandPayload, Principal } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { AuthenticateApiKeyUseCase } from '../../application/use-cases/authenticate-api-key/authenticate-api-key.use-case';

@Injectable()
export class AuthenticateHandler implements CommandHandler<'organization', 'auth.authenticate'> {
  readonly command = 'auth.authenticate' as const;

  constructor(private readonly useCase: AuthenticateApiKeyUseCase) {}

  execute(payload: CommandPayload<'organization', 'auth.authenticate'>): Promise<Principal> {
    return this.useCase.execute(payload);
  }
}
