import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolateQueues } from '@pfs/testing';
import { applyMigrations } from '../src';
import { createThrowawayDatabase, MIGRATIONS_DIR, withClient, type ThrowawayDatabase } from './throwaway-database';

isolateQueues('persistence-posting-txn');

const MIGRATION = '20261128100000_posting_transactions';
const AT = '2026-11-27 10:00:00.000+00';

/**
 * The migration that gives every posting the transaction of its own account, run on a journal
 * written before it (each line then named only through its entry's initiating transaction): a
 * transfer's receiving line must end on the RECEIVER transaction, a commission line on the
 * COMMISSION, everything else on the entry's transaction.
 */
describe(`migration ${MIGRATION}`, () => {
  let db: ThrowawayDatabase;
  let before: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    // The migrations up to (not including) this one, as a database had them before it.
    before = mkdtempSync(join(tmpdir(), 'pfs-migrations-before-'));
    for (const entry of readdirSync(MIGRATIONS_DIR, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name < MIGRATION) cpSync(join(MIGRATIONS_DIR, entry.name), join(before, entry.name), { recursive: true });
    }
    await applyMigrations(db.url, before);
  });

  afterAll(async () => {
    await db?.drop();
    if (before) rmSync(before, { recursive: true, force: true });
  });

  it('backfills each line with its own account’s transaction, pairs identical transfers one to one, and then enforces it', async () => {
    await withClient(db.url, async (client) => {
      const account = (id: string, organizationId: string) =>
        client.query(`INSERT INTO "ledger"."accounts" (id, organization_id, name, is_primary, status) VALUES ($1, $2, 'Primary', true, 'ACTIVE')`, [id, organizationId]);
      const transaction = (row: { id: string; org: string; account: string; type: string; role: string; amount: string; asset?: string; quote?: string; counterparty?: string; reference?: string }) =>
        client.query(
          `INSERT INTO "ledger"."transactions" (id, organization_id, account_id, type, status, role, asset, amount, quote_id, counterparty_organization_id, reference, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'COMPLETED', $5, $6, $7::numeric, $8, $9, $10, $11, $11)`,
          [row.id, row.org, row.account, row.type, row.role, row.asset ?? 'USDC', row.amount, row.quote ?? null, row.counterparty ?? null, row.reference ?? null, AT],
        );
      const entry = async (journalId: string, transactionId: string, lines: Array<[string | null, string | null, string, string]>) => {
        await client.query(`INSERT INTO "ledger"."journals" (id, kind, transaction_id, created_at) VALUES ($1, 'X', $2, $3)`, [journalId, transactionId, AT]);
        for (const [accountId, platformId, asset, amount] of lines) {
          await client.query(
            `INSERT INTO "ledger"."postings" (journal_id, account_id, platform_account_id, asset, amount, balance_after, created_at)
             VALUES ($1, $2, $3, $4, $5::numeric, CASE WHEN $2::text IS NULL THEN NULL ELSE 0 END, $6)`,
            [journalId, accountId, platformId, asset, amount, AT],
          );
        }
      };

      await client.query('BEGIN');
      for (const [id, org] of [
        ['acct_sender', 'org_sender'],
        ['acct_receiver', 'org_receiver'],
        ['acct_client', 'org_client'],
        ['acct_broker', 'org_broker'],
      ] as const) {
        await account(id, org);
      }
      for (const [id, purpose, asset] of [
        ['platform:external_deposits:USDC', 'external_deposits', 'USDC'],
        ['platform:liquidity:USDC', 'liquidity', 'USDC'],
        ['platform:liquidity:ETH', 'liquidity', 'ETH'],
        ['platform:fees_earned:USDC', 'fees_earned', 'USDC'],
      ] as const) {
        await client.query(`INSERT INTO "ledger"."platform_accounts" (id, purpose, asset) VALUES ($1, $2, $3)`, [id, purpose, asset]);
      }
      // A deposit: one account, every line on its transaction.
      await transaction({ id: 'txn_deposit', org: 'org_sender', account: 'acct_sender', type: 'CRYPTO_PAYIN', role: 'RECEIVER', amount: '100' });
      await entry('jrnl_deposit', 'txn_deposit', [
        ['acct_sender', null, 'USDC', '100'],
        [null, 'platform:external_deposits:USDC', 'USDC', '-100'],
      ]);
      // Three transfers written in the same millisecond, two of them alike in everything but ids.
      for (const [n, amount, reference] of [
        ['1', '5', null],
        ['2', '5', null],
        ['3', '7', 'Invoice 7'],
      ] as const) {
        await transaction({ id: `txn_sent_${n}`, org: 'org_sender', account: 'acct_sender', type: 'INTERNAL_TRANSFER', role: 'SENDER', amount, counterparty: 'org_receiver', reference: reference ?? undefined });
        await transaction({ id: `txn_received_${n}`, org: 'org_receiver', account: 'acct_receiver', type: 'INTERNAL_TRANSFER', role: 'RECEIVER', amount, counterparty: 'org_sender', reference: reference ?? undefined });
        await entry(`jrnl_transfer_${n}`, `txn_sent_${n}`, [
          ['acct_sender', null, 'USDC', `-${amount}`],
          ['acct_receiver', null, 'USDC', amount],
        ]);
      }
      // A trade whose commission went to the client's broker.
      await transaction({ id: 'txn_trade', org: 'org_client', account: 'acct_client', type: 'TRADE', role: 'SENDER', amount: '40', quote: 'quote_1' });
      await transaction({ id: 'txn_commission', org: 'org_broker', account: 'acct_broker', type: 'COMMISSION', role: 'RECEIVER', amount: '0.1', quote: 'quote_1', counterparty: 'org_client' });
      await entry('jrnl_trade', 'txn_trade', [
        ['acct_client', null, 'USDC', '-40'],
        [null, 'platform:liquidity:USDC', 'USDC', '39.6'],
        [null, 'platform:fees_earned:USDC', 'USDC', '0.3'],
        ['acct_broker', null, 'USDC', '0.1'],
        [null, 'platform:liquidity:ETH', 'ETH', '-0.0132'],
        ['acct_client', null, 'ETH', '0.0132'],
      ]);
      await client.query('COMMIT');
    });

    expect((await applyMigrations(db.url, MIGRATIONS_DIR)).applied).toContain(MIGRATION);

    await withClient(db.url, async (client) => {
      const { rows } = await client.query<{ journal: string; line: string; transaction: string; owner: string | null }>(
        `SELECT p.journal_id AS journal, COALESCE(p.account_id, p.platform_account_id) AS line, p.transaction_id AS transaction, t.account_id AS owner
         FROM "ledger"."postings" p JOIN "ledger"."transactions" t ON t.id = p.transaction_id ORDER BY p.id`,
      );
      const of = (journal: string) => rows.filter((row) => row.journal === journal).map((row) => `${row.line} ${row.transaction}`);
      expect(of('jrnl_deposit')).toEqual(['acct_sender txn_deposit', 'platform:external_deposits:USDC txn_deposit']);
      expect(of('jrnl_trade')).toEqual([
        'acct_client txn_trade',
        'platform:liquidity:USDC txn_trade',
        'platform:fees_earned:USDC txn_trade',
        'acct_broker txn_commission',
        'platform:liquidity:ETH txn_trade',
        'acct_client txn_trade',
      ]);
      expect(of('jrnl_transfer_3')).toEqual(['acct_sender txn_sent_3', 'acct_receiver txn_received_3']);
      // The two alike transfers: each receiving line on one of the two RECEIVER rows, neither row twice.
      const alike = [...of('jrnl_transfer_1'), ...of('jrnl_transfer_2')];
      expect(alike.filter((line) => line.startsWith('acct_sender'))).toEqual(['acct_sender txn_sent_1', 'acct_sender txn_sent_2']);
      expect(alike.filter((line) => line.startsWith('acct_receiver')).sort()).toEqual(['acct_receiver txn_received_1', 'acct_receiver txn_received_2']);
      // Every customer line on a transaction of its own account.
      for (const row of rows) if (row.line.startsWith('acct_')) expect(row.owner).toBe(row.line);

      // From now on PostgreSQL refuses a customer line on another account's transaction, and the journal stays append-only.
      await client.query('BEGIN');
      await client.query(`INSERT INTO "ledger"."journals" (id, kind, transaction_id) VALUES ('jrnl_bad', 'X', 'txn_sent_1')`);
      await expect(
        client.query(`INSERT INTO "ledger"."postings" (journal_id, account_id, asset, amount, balance_after, transaction_id) VALUES ('jrnl_bad', 'acct_receiver', 'USDC', 1, 1, 'txn_sent_1')`),
      ).rejects.toMatchObject({ code: '23503', constraint: 'postings_transaction_id_account_id_fkey' });
      await client.query('ROLLBACK');
      await expect(client.query(`UPDATE "ledger"."postings" SET transaction_id = 'txn_sent_1' WHERE journal_id = 'jrnl_transfer_1'`)).rejects.toThrow(/append-only/);
      await expect(client.query(`SELECT tgenabled FROM pg_trigger WHERE tgname = 'postings_append_only'`)).resolves.toMatchObject({ rows: [{ tgenabled: 'O' }] });
    });
  });
});
