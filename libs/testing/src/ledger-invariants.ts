import { Client } from 'pg';

/**
 * The books as they must always be, read in one snapshot so work still in flight in
 * other processes is either wholly in or wholly out. Answers one line per violation; none when
 * the ledger is sound:
 * - every customer balance equals the sum of its postings, and its newest line's balance_after;
 * - every journal entry sums to zero per asset;
 * - the whole platform's books (customer and platform accounts) sum to zero per asset;
 * - no customer balance is negative.
 */
export async function ledgerInvariantViolations(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const violations: string[] = [];
    const check = async (label: string, sql: string) => {
      const { rows } = await client.query<Record<string, unknown>>(sql);
      for (const row of rows) violations.push(`${label}: ${JSON.stringify(row)}`);
    };
    await check(
      'balance differs from the sum of its postings',
      `SELECT COALESCE(b.account_id, p.account_id) AS account_id, COALESCE(b.asset, p.asset) AS asset, b.amount::text AS balance, p.total::text AS postings
       FROM "ledger"."balances" b
       FULL OUTER JOIN (SELECT account_id, asset, SUM(amount) AS total FROM "ledger"."postings" WHERE account_id IS NOT NULL GROUP BY account_id, asset) p
         ON p.account_id = b.account_id AND p.asset = b.asset
       WHERE COALESCE(b.amount, 0) <> COALESCE(p.total, 0)`,
    );
    await check(
      'balance differs from its newest line’s balance_after',
      `SELECT b.account_id, b.asset, b.amount::text AS balance, last.balance_after::text AS balance_after
       FROM "ledger"."balances" b
       JOIN LATERAL (SELECT balance_after FROM "ledger"."postings" p WHERE p.account_id = b.account_id AND p.asset = b.asset ORDER BY p.id DESC LIMIT 1) last ON true
       WHERE last.balance_after <> b.amount`,
    );
    await check(
      'journal entry does not balance',
      `SELECT journal_id, asset, SUM(amount)::text AS total FROM "ledger"."postings" GROUP BY journal_id, asset HAVING SUM(amount) <> 0`,
    );
    await check('platform books do not sum to zero', `SELECT asset, SUM(amount)::text AS total FROM "ledger"."postings" GROUP BY asset HAVING SUM(amount) <> 0`);
    await check('negative customer balance', `SELECT account_id, asset, amount::text AS amount FROM "ledger"."balances" WHERE amount < 0`);
    await client.query('COMMIT');
    return violations;
  } finally {
    await client.end();
  }
}
