import { Injectable } from '@nestjs/common';
import { CursorCodec, listIdentity, type AccountEntryView, type PageView } from '@pfs/contracts';
import type { AccountEntry } from '../../../domain/account-entry';
import { AccountNotFoundError } from '../../../domain/ledger-errors';
import { presentAccountEntry } from '../../transaction.presenter';
import { AccountRepository } from '../../ports/account.repository';
import { Journal } from '../../ports/journal';
import type { ListAccountEntriesQuery } from './list-account-entries.query';

export const ACCOUNT_ENTRIES_LIST = 'account-entries';

/**
 * GET /v1/accounts/{id}/entries: the account's journal lines, newest first, each with the
 * balance it left, so a statement reconciles line by line. Ordered by the journal's own line
 * order (the cursor's id), which per account and asset is the order the balance changed in.
 */
@Injectable()
export class ListAccountEntriesUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly journal: Journal,
    private readonly cursors: CursorCodec,
  ) {}

  async execute(query: ListAccountEntriesQuery): Promise<PageView<AccountEntryView>> {
    const account = await this.accounts.findOwnership(query.accountId);
    if (account?.organizationId !== query.organizationId) throw new AccountNotFoundError(query.accountId);
    return this.cursors.page(
      listIdentity(ACCOUNT_ENTRIES_LIST, query.organizationId, { accountId: query.accountId }),
      query.page,
      async (after, take) => (await this.journal.entriesOf(query.accountId, after?.id ?? null, take)).map(asRow),
      (row) => presentAccountEntry(row.entry),
    );
  }
}

function asRow(entry: AccountEntry): { id: string; createdAt: Date; entry: AccountEntry } {
  return { id: entry.sequence, createdAt: entry.createdAt, entry };
}
