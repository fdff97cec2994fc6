import { Injectable } from '@nestjs/common';
import type { AccountHolderView } from '@pfs/contracts';
import { AccountRepository } from '../../ports/account.repository';
import type { GetAccountHolderQuery } from './get-account-holder.query';

/**
 * Which organization holds an account and its status, or null for an unknown account: what the
 * quote service's copy of accounts asks on a miss, and before it refuses an account that is not
 * ACTIVE. The holder is the quote service's to compare, so the answer is the same whoever asks.
 */
@Injectable()
export class GetAccountHolderUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(query: GetAccountHolderQuery): Promise<AccountHolderView | null> {
    const account = await this.accounts.findOwnership(query.accountId);
    return account && { accountId: query.accountId, organizationId: account.organizationId, status: account.status };
  }
}
