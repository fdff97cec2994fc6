import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type AccountView, type PageView } from '@pfs/contracts';
import { presentAccount } from '../../account.presenter';
import { AccountRepository } from '../../ports/account.repository';
import type { ListAccountsQuery } from './list-accounts.query';

export const ACCOUNTS_LIST = 'accounts';

@Injectable()
export class ListAccountsUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async execute(query: ListAccountsQuery): Promise<PageView<AccountView>> {
    return this.cursors.page(
      listIdentity(ACCOUNTS_LIST, query.organizationId),
      query.page,
      (after, take) => this.accounts.listByOrganization(query.organizationId, after, take),
      presentAccount,
    );
  }
}
