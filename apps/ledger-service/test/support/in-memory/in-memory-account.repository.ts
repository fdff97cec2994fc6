import type { CursorPosition } from '@pfs/contracts';
import { AccountRepository } from '../../../src/application/ports/account.repository';
import type { Account, AccountStatus } from '../../../src/domain/account';

/** The AccountRepository contract over an array, for use-case unit tests. */
export class InMemoryAccountRepository extends AccountRepository {
  readonly accounts: Account[] = [];

  constructor(accounts: Account[] = []) {
    super();
    this.accounts.push(...accounts);
  }

  async findById(accountId: string): Promise<Account | null> {
    return this.accounts.find((account) => account.id === accountId) ?? null;
  }

  async listByOrganization(organizationId: string, after: CursorPosition | null, limit: number): Promise<Account[]> {
    return this.accounts
      .filter((account) => account.organizationId === organizationId)
      .sort(newestFirst)
      .filter((account) => !after || newestFirst(account, { createdAt: new Date(after.createdAt), id: after.id }) > 0)
      .slice(0, limit);
  }

  async openIfAbsent(account: Account): Promise<boolean> {
    if (this.accounts.some((existing) => existing.id === account.id)) return false;
    this.accounts.push(account);
    return true;
  }

  async findOwnership(accountId: string): Promise<{ organizationId: string; status: AccountStatus } | null> {
    const account = this.accounts.find((candidate) => candidate.id === accountId);
    return account ? { organizationId: account.organizationId, status: account.status } : null;
  }

  async saveDetails(account: Account): Promise<void> {
    const index = this.accounts.findIndex((existing) => existing.id === account.id);
    if (index === -1) throw new Error(`no account ${account.id} to save`);
    this.accounts[index] = account;
  }

  async findPrimaryId(organizationId: string): Promise<string | null> {
    return this.accounts.find((account) => account.organizationId === organizationId && account.isPrimary)?.id ?? null;
  }

  /** One caller at a time in unit tests: nothing to lock. */
  async lockOwner(accountId: string): Promise<string | null> {
    return this.accounts.find((account) => account.id === accountId)?.organizationId ?? null;
  }
}

/** Order of every list: createdAt descending, then id descending. */
function newestFirst(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
