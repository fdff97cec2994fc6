import { Injectable } from '@nestjs/common';
import { Big } from '@pfs/contracts';
import { isCheckViolation, isNumericOverflow, Prisma, PrismaTransactionHost, type DeferredWrite } from '@pfs/persistence';
import { Journal } from '../../application/ports/journal';
import type { AccountEntry } from '../../domain/account-entry';
import { platformAccountId, type JournalEntry } from '../../domain/journal-entry';
import { AmountTooLargeError, InsufficientFundsError } from '../../domain/ledger-errors';
import { refuseOverflow } from './refuse-overflow';

interface BalanceRow {
  amount: string;
}

interface EntryRow {
  sequence: string;
  journal_id: string;
  transaction_id: string;
  asset: string;
  amount: string;
  balance_after: string;
  created_at: Date;
}

/**
 * The journal in PostgreSQL. Per entry: one upsert per customer line in the entry's lock order
 * (the balance row's CHECK refuses a negative result: that is `insufficient_funds`), then the
 * journal row and all its postings in one statement. Platform accounts have no balance row, so
 * postings on them lock nothing. In a write-only unit the whole entry is one deferred write, its
 * balance rows changed by one upsert in the same lock order.
 */
@Injectable()
export class PrismaJournal extends Journal {
  /** Platform accounts known to exist: created once, then never written again. */
  private readonly knownPlatformAccounts = new Set<string>();

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async post(entry: JournalEntry, at: Date): Promise<void> {
    if (this.host.writeOnly) return this.defer(entry, at);
    const db = this.host.client;
    const balanceAfter = new Map<string, string>();
    for (const line of entry.customerLines()) {
      const key = `${line.account.accountId}|${line.asset}`;
      try {
        // A credit may open the balance row; a debit only ever updates it (PostgreSQL checks an
        // upsert's proposed row, negative for a debit, before it looks for the existing one).
        const rows = line.amount.gt(0)
          ? await db.$queryRaw<BalanceRow[]>`
              INSERT INTO "ledger"."balances" (account_id, asset, amount, updated_at)
              VALUES (${line.account.accountId}, ${line.asset}, ${line.amount.toFixed()}::numeric, ${at})
              ON CONFLICT (account_id, asset) DO UPDATE SET amount = "balances".amount + EXCLUDED.amount, updated_at = EXCLUDED.updated_at
              RETURNING amount::text AS amount`
          : await db.$queryRaw<BalanceRow[]>`
              UPDATE "ledger"."balances" SET amount = amount + ${line.amount.toFixed()}::numeric, updated_at = ${at}
              WHERE account_id = ${line.account.accountId} AND asset = ${line.asset}
              RETURNING amount::text AS amount`;
        const row = rows[0];
        if (!row) throw new InsufficientFundsError(line.account.accountId, line.asset);
        balanceAfter.set(key, row.amount);
      } catch (error) {
        // The balance row's CHECK (amount >= 0) is what refuses an overdraft, under the row lock.
        if (isCheckViolation(error, 'balances_amount_not_negative')) throw new InsufficientFundsError(line.account.accountId, line.asset);
        // A result beyond numeric(38, 18): a debit that large exceeds any balance; a credit would
        // leave a balance the row cannot hold.
        if (isNumericOverflow(error)) {
          if (line.amount.lt(0)) throw new InsufficientFundsError(line.account.accountId, line.asset);
          throw balanceTooLarge(line.account.accountId, line.asset);
        }
        throw error;
      }
    }
    await this.ensurePlatformAccounts(entry);
    const lines = lineArrays(entry, (customer, asset) => balanceAfter.get(`${customer}|${asset}`) ?? null);
    // One round trip for the entry and its lines; the deferred trigger checks at COMMIT that they balance.
    await refuseOverflow(db.$executeRaw`
      WITH journal AS (
        INSERT INTO "ledger"."journals" (id, kind, transaction_id, created_at)
        VALUES (${entry.id}, ${entry.kind}, ${entry.transactionId}, ${at})
        RETURNING id
      )
      INSERT INTO "ledger"."postings" (journal_id, account_id, platform_account_id, asset, amount, balance_after, transaction_id, created_at)
      SELECT journal.id, line.account_id, line.platform_account_id, line.asset, line.amount::numeric, line.balance_after::numeric, line.transaction_id, ${at}
      FROM journal, unnest(${lines.accountIds}::text[], ${lines.platformIds}::text[], ${lines.assets}::text[], ${lines.amounts}::text[],
        ${lines.after}::text[], ${lines.transactionIds}::text[])
        AS line(account_id, platform_account_id, asset, amount, balance_after, transaction_id)`);
  }

  /**
   * The entry as one write of the unit's statement: new platform accounts, the balance rows
   * (upserted in lock order), the journal row and its postings, each posting's balance taken from
   * its balance row's upsert. One entry per unit: two would meet on a balance row in one statement.
   */
  private defer(entry: JournalEntry, at: Date): void {
    const keys = entry.customerLines().map((line) => `${line.account.accountId}|${line.asset}`);
    if (new Set(keys).size !== keys.length) throw new Error(`journal entry ${entry.id}: a write-only unit of work changes each balance row once`);
    const posted = this.host.deferOnce(this, () => new PostedEntry(entry, at));
    if (posted?.entry !== entry) throw new Error(`journal entry ${entry.id}: a write-only unit of work posts one entry`);
    posted.newPlatformAccounts = this.newPlatformAccounts(entry);
  }

  async entriesOf(accountId: string, beforeSequence: string | null, limit: number): Promise<AccountEntry[]> {
    const rows = await this.host.client.$queryRaw<EntryRow[]>`
      SELECT p.id::text AS sequence, p.journal_id, p.transaction_id, p.asset, p.amount::text AS amount,
        p.balance_after::text AS balance_after, p.created_at
      FROM "ledger"."postings" p
      WHERE p.account_id = ${accountId} AND (${beforeSequence}::bigint IS NULL OR p.id < ${beforeSequence}::bigint)
      ORDER BY p.id DESC
      LIMIT ${limit}`;
    return rows.map((row) => ({
      sequence: row.sequence,
      journalId: row.journal_id,
      transactionId: row.transaction_id,
      accountId,
      asset: row.asset,
      amount: new Big(row.amount),
      balanceAfter: new Big(row.balance_after),
      createdAt: row.created_at,
    }));
  }

  private async ensurePlatformAccounts(entry: JournalEntry): Promise<void> {
    const missing = this.newPlatformAccounts(entry);
    if (!missing.length) return;
    // In the entry's transaction, after its balance rows: two first postings on a new platform
    // account take turns once, never in a cycle.
    await this.host.client.ledgerPlatformAccount.createMany({ data: missing, skipDuplicates: true });
  }

  /**
   * The entry's platform accounts not known to exist yet, in id order (the order their rows are
   * locked in), remembered as existing once the unit of work that writes them commits.
   */
  private newPlatformAccounts(entry: JournalEntry): PlatformAccountRow[] {
    const missing = entry
      .platformLines()
      .map((line) => ({ id: platformAccountId(line.account.purpose, line.asset), purpose: line.account.purpose, asset: line.asset }))
      .filter((account) => !this.knownPlatformAccounts.has(account.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    if (missing.length) {
      this.host.afterCommit(() => {
        for (const account of missing) this.knownPlatformAccounts.add(account.id);
      });
    }
    return missing;
  }
}

/** numeric(38, 18): at most 20 digits before the decimal point. */
const NUMERIC_LIMIT = new Big('1e20');

/** A credit would leave a balance numeric(38, 18) cannot hold. */
function balanceTooLarge(accountId: string, asset: string): AmountTooLargeError {
  return new AmountTooLargeError(`the ${asset} balance of account ${accountId}`);
}

/** The entry's lines as the column arrays the postings' INSERT unnests. */
function lineArrays(entry: JournalEntry, balanceAfter: (accountId: string, asset: string) => string | null) {
  const lines = {
    accountIds: [] as Array<string | null>,
    platformIds: [] as Array<string | null>,
    assets: [] as string[],
    amounts: [] as string[],
    after: [] as Array<string | null>,
    transactionIds: [] as string[],
  };
  for (const line of entry.lines) {
    const customer = line.account.kind === 'customer' ? line.account.accountId : null;
    lines.accountIds.push(customer);
    lines.platformIds.push(line.account.kind === 'platform' ? platformAccountId(line.account.purpose, line.asset) : null);
    lines.assets.push(line.asset);
    lines.amounts.push(line.amount.toFixed());
    lines.after.push(customer ? balanceAfter(customer, line.asset) : null);
    lines.transactionIds.push(line.transactionId);
  }
  return lines;
}

interface PlatformAccountRow {
  id: string;
  purpose: string;
  asset: string;
}

/**
 * An entry as CTEs of a write-only unit's statement. Every customer line goes through one upsert,
 * in the entry's lock order, as the interactive path takes its rows: a credit may open its row,
 * a debit proposes a zero row (PostgreSQL checks a proposed row's CHECK before it looks for the
 * existing one) and adds its negative amount to the existing one. A debit that found no row (it
 * inserted the zero row) leaves its posting without a balance, which the postings' CHECK refuses,
 * and a debit past the balance is refused by the balance's CHECK: both are `insufficient_funds`,
 * and the whole statement writes nothing.
 */
class PostedEntry implements DeferredWrite {
  newPlatformAccounts: PlatformAccountRow[] = [];

  constructor(
    readonly entry: JournalEntry,
    private readonly at: Date,
  ) {}

  ctes(prefix: string): Prisma.Sql[] {
    const p = Prisma.raw(prefix);
    const { entry, at } = this;
    const customer = entry.customerLines();
    const lines = lineArrays(entry, () => null);
    const ctes: Prisma.Sql[] = [];
    if (this.newPlatformAccounts.length) {
      const accounts = this.newPlatformAccounts;
      ctes.push(Prisma.sql`${p}_platform AS (
        INSERT INTO "ledger"."platform_accounts" (id, purpose, asset)
        SELECT * FROM unnest(${accounts.map((a) => a.id)}::text[], ${accounts.map((a) => a.purpose)}::text[], ${accounts.map((a) => a.asset)}::text[])
        ON CONFLICT DO NOTHING)`);
    }
    ctes.push(
      Prisma.sql`${p}_change AS (
        SELECT account_id, asset, amount::numeric AS amount
        FROM unnest(${customer.map((line) => line.account.accountId)}::text[], ${customer.map((line) => line.asset)}::text[],
          ${customer.map((line) => line.amount.toFixed())}::text[]) AS line(account_id, asset, amount))`,
      Prisma.sql`${p}_balance AS (
        INSERT INTO "ledger"."balances" AS b (account_id, asset, amount, updated_at)
        SELECT account_id, asset, GREATEST(amount, 0), ${at} FROM ${p}_change
        ORDER BY account_id, asset
        ON CONFLICT (account_id, asset) DO UPDATE SET
          amount = b.amount + (SELECT c.amount FROM ${p}_change c WHERE c.account_id = b.account_id AND c.asset = b.asset),
          updated_at = EXCLUDED.updated_at
        RETURNING account_id, asset, amount, xmax = 0 AS inserted)`,
      Prisma.sql`${p}_journal AS (
        INSERT INTO "ledger"."journals" (id, kind, transaction_id, created_at) VALUES (${entry.id}, ${entry.kind}, ${entry.transactionId}, ${at}))`,
      Prisma.sql`${p}_postings AS (
        INSERT INTO "ledger"."postings" (journal_id, account_id, platform_account_id, asset, amount, balance_after, transaction_id, created_at)
        SELECT ${entry.id}, line.account_id, line.platform_account_id, line.asset, line.amount::numeric,
          CASE WHEN balance.inserted AND line.amount::numeric < 0 THEN NULL ELSE balance.amount END, line.transaction_id, ${at}
        FROM unnest(${lines.accountIds}::text[], ${lines.platformIds}::text[], ${lines.assets}::text[], ${lines.amounts}::text[], ${lines.transactionIds}::text[])
          AS line(account_id, platform_account_id, asset, amount, transaction_id)
        LEFT JOIN ${p}_balance balance ON balance.account_id = line.account_id AND balance.asset = line.asset)`,
    );
    return ctes;
  }

  refusal(error: unknown): Error | undefined {
    const debit = this.entry.customerLines().find((line) => line.amount.lt(0));
    if (debit && (isCheckViolation(error, 'balances_amount_not_negative') || isCheckViolation(error, 'postings_balance_after_on_customer_lines'))) {
      return new InsufficientFundsError(debit.account.accountId, debit.asset);
    }
    if (!isNumericOverflow(error)) return undefined;
    // A debit beyond numeric(38, 18) exceeds any balance; below it, only a credit can overflow its balance.
    const hugeDebit = this.entry.customerLines().find((line) => line.amount.lt(0) && line.amount.abs().gte(NUMERIC_LIMIT));
    if (hugeDebit) return new InsufficientFundsError(hugeDebit.account.accountId, hugeDebit.asset);
    const credit = this.entry.customerLines().find((line) => line.amount.gt(0));
    return credit ? balanceTooLarge(credit.account.accountId, credit.asset) : new AmountTooLargeError('an amount of this request');
  }
}
