import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { CheckOnBehalfOfUseCase } from '../../application/use-cases/check-on-behalf-of/check-on-behalf-of.use-case';

@Injectable()
export class CheckOnBehalfOfHandler implements CommandHandler<'organization', 'access.check-on-behalf-of'> {
  readonly command = 'access.check-on-behalf-of' as const;

  constructor(private readonly useCase: CheckOnBehalfOfUseCase) {}

  execute(
    payload: CommandPayload<'organization', 'access.check-on-behalf-of'>,
  ): Promise<CommandResult<'organization', 'access.check-on-behalf-of'>> {
    return this.useCase.execute(payload);
  }
}
