import { Injectable } from '@nestjs/common';
import type { AccountView, CommandPayload, PageView } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { ListAccountsUseCase } from '../../application/use-cases/list-accounts/list-accounts.use-case';

@Injectable()
export class ListAccountsHandler implements CommandHandler<'ledger', 'accounts.list'> {
  readonly command = 'accounts.list' as const;

  constructor(private readonly useCase: ListAccountsUseCase) {}

  execute(payload: CommandPayload<'ledger', 'accounts.list'>): Promise<PageView<AccountView>> {
    return this.useCase.execute(payload);
  }
}
