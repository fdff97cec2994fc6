import { Big } from '@pfs/contracts';
import { Journal } from '../../../src/application/ports/journal';
import type { AccountEntry } from '../../../src/domain/account-entry';
import { platformAccountId, type JournalEntry } from '../../../src/domain/journal-entry';
import { InsufficientFundsError } from '../../../src/domain/ledger-errors';

/**
 * The Journal contract in memory: all of an entry or nothing, never a negative customer
 * balance. Keeps every line so tests can check the books: per asset they sum to zero.
 */
export class InMemoryJournal extends Journal {
  readonly entries: JournalEntry[] = [];
  private readonly customerLines: AccountEntry[] = [];
  private readonly balances = new Map<string, Big>();
  private sequence = 0;

  async post(entry: JournalEntry, at: Date): Promise<void> {
    const after = new Map<string, Big>();
    for (const line of entry.customerLines()) {
      const key = `${line.account.accountId}|${line.asset}`;
      const next = (this.balances.get(key) ?? new Big(0)).plus(line.amount);
      if (next.lt(0)) throw new InsufficientFundsError(line.account.accountId, line.asset);
      after.set(key, next);
    }
    for (const line of entry.customerLines()) {
      const key = `${line.account.accountId}|${line.asset}`;
      const balance = after.get(key)!;
      this.balances.set(key, balance);
      this.sequence += 1;
      this.customerLines.push({
        sequence: String(this.sequence),
        journalId: entry.id,
        transactionId: line.transactionId,
        accountId: line.account.accountId,
        asset: line.asset,
        amount: line.amount,
        balanceAfter: balance,
        createdAt: at,
      });
    }
    this.entries.push(entry);
  }

  /** What a rollback restores (see InMemoryUnitOfWork). */
  snapshot(): () => void {
    const entries = this.entries.length;
    const lines = this.customerLines.length;
    const balances = new Map(this.balances);
    const sequence = this.sequence;
    return () => {
      this.entries.splice(entries);
      this.customerLines.splice(lines);
      this.balances.clear();
      for (const [key, balance] of balances) this.balances.set(key, balance);
      this.sequence = sequence;
    };
  }

  async entriesOf(accountId: string, beforeSequence: string | null, limit: number): Promise<AccountEntry[]> {
    return this.customerLines
      .filter((line) => line.accountId === accountId && (beforeSequence === null || Number(line.sequence) < Number(beforeSequence)))
      .sort((a, b) => Number(b.sequence) - Number(a.sequence))
      .slice(0, limit);
  }

  balanceOf(accountId: string, asset: string): string {
    return (this.balances.get(`${accountId}|${asset}`) ?? new Big(0)).toFixed();
  }

  /** Sum of every line per asset across customer and platform accounts: zero when the books balance. */
  booksByAsset(): Record<string, string> {
    const sums: Record<string, Big> = {};
    for (const entry of this.entries) for (const line of entry.lines) sums[line.asset] = (sums[line.asset] ?? new Big(0)).plus(line.amount);
    return Object.fromEntries(Object.entries(sums).map(([asset, sum]) => [asset, sum.toFixed()]));
  }

  /** A platform account's balance: the sum of its lines. */
  platformBalance(purpose: Parameters<typeof platformAccountId>[0], asset: string): string {
    let sum = new Big(0);
    for (const entry of this.entries) {
      for (const line of entry.lines) if (line.account.kind === 'platform' && line.account.purpose === purpose && line.asset === asset) sum = sum.plus(line.amount);
    }
    return sum.toFixed();
  }
}
