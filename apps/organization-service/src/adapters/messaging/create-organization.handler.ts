import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { CreateClientOrganizationUseCase } from '../../application/use-cases/create-client-organization/create-client-organization.use-case';

@Injectable()
export class CreateOrganizationHandler implements CommandHandler<'organization', 'organizations.create'> {
  readonly command = 'organizations.create' as const;

  constructor(private readonly useCase: CreateClientOrganizationUseCase) {}

  execute(payload: CommandPayload<'organization', 'organizations.create'>): Promise<CommandResult<'organization', 'organizations.create'>> {
    return this.useCase.execute(payload);
  }
}
