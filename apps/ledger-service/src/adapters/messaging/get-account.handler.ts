import { Injectable } from '@nestjs/common';
import type { AccountView, CommandPayload } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { GetAccountUseCase } from '../../application/use-cases/get-account/get-account.use-case';

@Injectable()
export class GetAccountHandler implements CommandHandler<'ledger', 'accounts.get'> {
  readonly command = 'accounts.get' as const;

  constructor(private readonly useCase: GetAccountUseCase) {}

  execute(payload: CommandPayload<'ledger', 'accounts.get'>): Promise<AccountView> {
    return this.useCase.execute(payload);
  }
}
