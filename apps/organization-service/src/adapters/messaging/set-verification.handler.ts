import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { SetVerificationStatusUseCase } from '../../application/use-cases/set-verification-status/set-verification-status.use-case';

@Injectable()
export class SetVerificationHandler implements CommandHandler<'organization', 'organizations.set-verification'> {
  readonly command = 'organizations.set-verification' as const;

  constructor(private readonly useCase: SetVerificationStatusUseCase) {}

  execute(payload: CommandPayload<'organization', 'organizations.set-verification'>): Promise<CommandResult<'organization', 'organizations.set-verification'>> {
    return this.useCase.execute(payload);
  }
}
