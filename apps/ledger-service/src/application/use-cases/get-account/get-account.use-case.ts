import { Injectable } from '@nestjs/common';
import type { AccountView } from '@pfs/contracts';
import { AccountNotFoundError } from '../../../domain/ledger-errors';
import { presentAccount } from '../../account.presenter';
import { AccountRepository } from '../../ports/account.repository';
import type { GetAccountQuery } from './get-account.query';

@Injectable()
export class GetAccountUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(query: GetAccountQuery): Promise<AccountView> {
    const account = await this.accounts.findById(query.accountId);
    // Another organization's account answers exactly like a missing one.
    if (!account || !account.belongsTo(query.organizationId)) throw new AccountNotFoundError(query.accountId);
    return presentAccount(account);
  }
}
