import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { GetOrganizationUseCase } from '../../application/use-cases/get-organization/get-organization.use-case';

@Injectable()
export class GetOrganizationHandler implements CommandHandler<'organization', 'organizations.get'> {
  readonly command = 'organizations.get' as const;

  constructor(private readonly useCase: GetOrganizationUseCase) {}

  execute(payload: CommandPayload<'organization', 'organizations.get'>): Promise<CommandResult<'organization', 'organizations.get'>> {
    return this.useCase.execute(payload);
  }
}
