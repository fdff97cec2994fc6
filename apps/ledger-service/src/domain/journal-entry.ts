import { Big } from '@pfs/contracts';

/**
 * The platform's own ledger accounts, one per purpose and asset: the other side of every
 * customer movement, so the books of the whole platform sum to zero per asset.
 */
export const PLATFORM_PURPOSES = [
  /** Money that arrived from outside (chains, banks): goes negative as deposits come in. */
  'external_deposits',
  /** Payouts held from customer balances, not yet sent. */
  'payouts_in_flight',
  /** Money sent out to beneficiaries. */
  'external_payouts',
  /** Fees the platform has earned (payout fees, the platform's part of trade spreads). */
  'fees_earned',
  /** The platform's side of trades: takes what clients sell, pays what they buy; may go negative. */
  'liquidity',
] as const;
export type PlatformPurpose = (typeof PLATFORM_PURPOSES)[number];

export type LedgerAccountRef = { kind: 'customer'; accountId: string } | { kind: 'platform'; purpose: PlatformPurpose };

export function customer(accountId: string): LedgerAccountRef {
  return { kind: 'customer', accountId };
}

export function platform(purpose: PlatformPurpose): LedgerAccountRef {
  return { kind: 'platform', purpose };
}

/** `platform:<purpose>:<asset>`: the id of a platform account. */
export function platformAccountId(purpose: PlatformPurpose, asset: string): string {
  return `platform:${purpose}:${asset}`;
}

/**
 * One line: positive credits the account (its balance goes up), negative debits it. It carries
 * the transaction of the account it lands on, which is what that account's statement shows: the
 * receiver's RECEIVER side of a transfer, the broker's COMMISSION of a trade, not the initiating
 * transaction of another organization. Platform lines carry the entry's transaction.
 */
export interface JournalLine {
  account: LedgerAccountRef;
  asset: string;
  amount: Big;
  transactionId: string;
}

/** A line as the posting rules write it: without a transaction of its own it takes the entry's. */
export type JournalLineInput = Omit<JournalLine, 'transactionId'> & { transactionId?: string };

/** A bug, never a client error: code tried to write an entry that does not balance. */
export class UnbalancedJournalEntryError extends Error {
  constructor(detail: string) {
    super(`journal entry does not balance: ${detail}`);
  }
}

function key(line: Pick<JournalLine, 'account' | 'asset'>): string {
  return line.account.kind === 'customer' ? `c|${line.account.accountId}|${line.asset}` : `p|${line.account.purpose}|${line.asset}`;
}

/**
 * One balanced journal entry: its lines sum to zero per asset. Lines on the same account and
 * asset are merged and zero lines dropped, so each (account, asset) appears once: its balance
 * row is updated once, and the lock order below is total.
 */
export class JournalEntry {
  private constructor(
    readonly id: string,
    /** The transition it records, e.g. `CRYPTO_PAYIN:COMPLETED`. */
    readonly kind: string,
    /** The transaction that initiated the entry (for a trade, the TRADE; for a transfer, the sender's). */
    readonly transactionId: string,
    readonly lines: readonly JournalLine[],
  ) {}

  static of(id: string, kind: string, transactionId: string, lines: readonly JournalLineInput[]): JournalEntry {
    const merged = new Map<string, JournalLine>();
    for (const input of lines) {
      const line: JournalLine = { ...input, amount: new Big(input.amount), transactionId: input.transactionId ?? transactionId };
      const existing = merged.get(key(line));
      if (existing && existing.transactionId !== line.transactionId) {
        // A bug, never a client error: one account's line can only belong to one of its transactions.
        throw new Error(`${kind} of ${transactionId} puts two transactions on one line (${key(line)})`);
      }
      merged.set(key(line), existing ? { ...existing, amount: existing.amount.plus(line.amount) } : line);
    }
    const kept = [...merged.values()].filter((line) => !line.amount.eq(0));
    const sums = new Map<string, Big>();
    for (const line of kept) sums.set(line.asset, (sums.get(line.asset) ?? new Big(0)).plus(line.amount));
    for (const [asset, sum] of sums) {
      if (!sum.eq(0)) throw new UnbalancedJournalEntryError(`${kind} of ${transactionId} leaves ${sum.toFixed()} ${asset}`);
    }
    if (kept.length < 2) throw new UnbalancedJournalEntryError(`${kind} of ${transactionId} has ${kept.length} line(s)`);
    return new JournalEntry(id, kind, transactionId, kept);
  }

  /**
   * The customer lines in the one order every posting locks balance rows in, (accountId, asset),
   * so two postings never wait on each other in a cycle.
   */
  customerLines(): Array<JournalLine & { account: { kind: 'customer'; accountId: string } }> {
    return this.lines
      .filter((line): line is JournalLine & { account: { kind: 'customer'; accountId: string } } => line.account.kind === 'customer')
      .sort((a, b) => (a.account.accountId === b.account.accountId ? compare(a.asset, b.asset) : compare(a.account.accountId, b.account.accountId)));
  }

  platformLines(): Array<JournalLine & { account: { kind: 'platform'; purpose: PlatformPurpose } }> {
    return this.lines.filter((line): line is JournalLine & { account: { kind: 'platform'; purpose: PlatformPurpose } } => line.account.kind === 'platform');
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
