import { Injectable } from '@nestjs/common';
import { buildPage, CursorCodec, type AccountView, type PageView } from '@pfs/contracts';
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
    const after = query.page.cursor ? this.cursors.decode(ACCOUNTS_LIST, query.page.cursor) : null;
    const rows = await this.accounts.listByOrganization(query.organizationId, after, query.page.limit + 1);
    return buildPage(
      rows,
      query.page.limit,
      this.cursors,
      ACCOUNTS_LIST,
      (account) => ({ createdAt: account.createdAt.toISOString(), id: account.id }),
      presentAccount,
    );
  }
}
