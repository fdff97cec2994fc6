import { Injectable } from '@nestjs/common';
import { Big } from '@pfs/contracts';
import { isCheckViolation, isNumericOverflow, PrismaTransactionHost } from '@pfs/persistence';
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
 * postings on them lock nothing.
 */
@Injectable()
export class PrismaJournal extends Journal {
  /** Platform accounts known to exist: created once, then never written again. */
  private readonly knownPlatformAccounts = new Set<string>();

  constructor(private readonly host: PrismaTransactionHost) {
    super();
  }

  async post(entry: JournalEntry, at: Date): Promise<void> {
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
          throw new AmountTooLargeError(`the ${line.asset} balance of account ${line.account.accountId}`);
        }
        throw error;
      }
    }
    await this.ensurePlatformAccounts(entry);
    const accountIds: Array<string | null> = [];
    const platformIds: Array<string | null> = [];
    const assets: string[] = [];
    const amounts: string[] = [];
    const after: Array<string | null> = [];
    const transactionIds: string[] = [];
    for (const line of entry.lines) {
      const customer = line.account.kind === 'customer' ? line.account.accountId : null;
      accountIds.push(customer);
      platformIds.push(line.account.kind === 'platform' ? platformAccountId(line.account.purpose, line.asset) : null);
      assets.push(line.asset);
      amounts.push(line.amount.toFixed());
      after.push(customer ? (balanceAfter.get(`${customer}|${line.asset}`) ?? null) : null);
      transactionIds.push(line.transactionId);
    }
    // One round trip for the entry and its lines; the deferred trigger checks at COMMIT that they balance.
    await refuseOverflow(db.$executeRaw`
      WITH journal AS (
        INSERT INTO "ledger"."journals" (id, kind, transaction_id, created_at)
        VALUES (${entry.id}, ${entry.kind}, ${entry.transactionId}, ${at})
        RETURNING id
      )
      INSERT INTO "ledger"."postings" (journal_id, account_id, platform_account_id, asset, amount, balance_after, transaction_id, created_at)
      SELECT journal.id, line.account_id, line.platform_account_id, line.asset, line.amount::numeric, line.balance_after::numeric, line.transaction_id, ${at}
      FROM journal, unnest(${accountIds}::text[], ${platformIds}::text[], ${assets}::text[], ${amounts}::text[], ${after}::text[], ${transactionIds}::text[])
        AS line(account_id, platform_account_id, asset, amount, balance_after, transaction_id)`);
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
    const missing = entry
      .platformLines()
      .map((line) => ({ id: platformAccountId(line.account.purpose, line.asset), purpose: line.account.purpose, asset: line.asset }))
      .filter((account) => !this.knownPlatformAccounts.has(account.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    if (!missing.length) return;
    // In the entry's transaction, after its balance rows and in id order: two first postings on
    // a new platform account take turns once, never in a cycle. Remembered only once committed.
    await this.host.client.ledgerPlatformAccount.createMany({ data: missing, skipDuplicates: true });
    this.host.afterCommit(() => {
      for (const account of missing) this.knownPlatformAccounts.add(account.id);
    });
  }
}
