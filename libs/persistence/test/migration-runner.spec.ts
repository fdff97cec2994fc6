import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { applyMigrations, ensureDatabase, readMigrations, statementsFor } from '../src';
import { createThrowawayDatabase, MIGRATIONS_DIR, withClient, type ThrowawayDatabase } from './throwaway-database';

isolateQueues('persistence-mig');

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

const migrationNames = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('migration runner', () => {
  let db: ThrowawayDatabase;
  let copies: string[] = [];

  beforeEach(async () => {
    db = await createThrowawayDatabase();
  });

  afterEach(async () => {
    await db.drop();
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
    copies = [];
  });

  /** A private copy of prisma/migrations that a test may edit. */
  function copyOfMigrations(): string {
    const dir = mkdtempSync(join(tmpdir(), 'pfs-migrations-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    copies.push(dir);
    return dir;
  }

  it('applies every migration once and records it as Prisma does (sha256 of the file, finished_at set)', async () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    const first = await applyMigrations(db.url, MIGRATIONS_DIR);
    expect(first).toEqual({ applied: migrationNames, alreadyApplied: [] });

    const rows = await withClient(db.url, async (client) => {
      const { rows: found } = await client.query<{ schema: string }>(
        `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = '_prisma_migrations'`,
      );
      expect(found).toEqual([{ schema: 'public' }]);
      return (
        await client.query<MigrationRow>(
          'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
        )
      ).rows;
    });
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
    for (const row of rows) {
      const sql = readFileSync(join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }

    const second = await applyMigrations(db.url, MIGRATIONS_DIR);
    expect(second).toEqual({ applied: [], alreadyApplied: migrationNames });
    const count = await withClient(db.url, async (client) => (await client.query('SELECT 1 FROM "_prisma_migrations"')).rowCount);
    expect(count).toBe(migrationNames.length);
  });

  it('applies the statements of some schemas alone: those schemas exactly as a full run makes them, nothing of the others', async () => {
    const schemas = ['ledger', 'delivery'];
    expect(await applyMigrations(db.url, MIGRATIONS_DIR, { schemas })).toEqual({ applied: migrationNames, alreadyApplied: [] });
    // Tables and columns, constraints, indexes, triggers and functions of a schema, as text.
    const shape = (url: string) =>
      withClient(url, async (client) => {
        const { rows } = await client.query<{ line: string }>(`
          SELECT n.nspname || ' ' || c.relkind::text || ' ' || c.relname || ' ' || coalesce(string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull::text, ',' ORDER BY a.attnum), '') AS line
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast', 'public')
           GROUP BY n.nspname, c.relkind, c.relname
          UNION ALL
          SELECT n.nspname || ' constraint ' || pg_get_constraintdef(k.oid) FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace
           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'public')
          UNION ALL
          SELECT n.nspname || ' trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE NOT t.tgisinternal
          UNION ALL
          SELECT n.nspname || ' function ' || p.proname || ' ' || md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'public')
          ORDER BY 1`);
        return rows.map((row) => row.line);
      });
    const full = await shape(testDatabaseUrl());
    const own = await shape(db.url);
    expect(own.length).toBeGreaterThan(20);
    expect(own).toEqual(full.filter((line) => schemas.includes(line.split(' ')[0]!)));
    const present = await withClient(db.url, async (client) => (await client.query<{ name: string }>('SELECT nspname AS name FROM pg_namespace ORDER BY 1')).rows.map((row) => row.name));
    expect(present.filter((name) => ['organization', 'ledger', 'quote', 'beneficiary', 'webhook', 'delivery'].includes(name))).toEqual(['delivery', 'ledger']);

    // Again with the same schemas: nothing to do. With other ones, or all: refused.
    expect(await applyMigrations(db.url, MIGRATIONS_DIR, { schemas: ['delivery', 'ledger'] })).toEqual({ applied: [], alreadyApplied: migrationNames });
    await expect(applyMigrations(db.url, MIGRATIONS_DIR)).rejects.toThrow('one database, one selection');
    await expect(applyMigrations(db.url, MIGRATIONS_DIR, { schemas: ['ledger'] })).rejects.toThrow('one database, one selection');
  });

  it('refuses to split a statement that touches a selected schema and another', () => {
    const migration = { name: '99991231000000_cross', checksum: 'x', sql: 'CREATE TABLE "ledger"."a" (id int);\nCREATE VIEW "ledger"."b" AS SELECT * FROM "quote"."quotes";' };
    expect(() => statementsFor(migration, ['ledger'])).toThrow('touches ledger and quote');
    expect(statementsFor({ ...migration, sql: 'CREATE TABLE "ledger"."a" (id int);\n-- "quote". in a comment\nCREATE TABLE "quote"."c" (note text DEFAULT \'x;y\');' }, ['quote'])).toEqual([
      '-- "quote". in a comment\nCREATE TABLE "quote"."c" (note text DEFAULT \'x;y\')',
    ]);
  });

  it('applies only the migrations that are new', async () => {
    const dir = copyOfMigrations();
    await applyMigrations(db.url, dir);
    const name = '99991231000000_add_probe';
    cpSync(join(dir, migrationNames[0]!), join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'migration.sql'), 'CREATE TABLE "public"."migration_probe" ("id" TEXT NOT NULL PRIMARY KEY);\n');

    expect(await applyMigrations(db.url, dir)).toEqual({ applied: [name], alreadyApplied: migrationNames });
    const tables = await withClient(db.url, async (client) => (await client.query(`SELECT to_regclass('public.migration_probe') AS t`)).rows);
    expect(tables).toEqual([{ t: 'migration_probe' }]);
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const dir = copyOfMigrations();
    await applyMigrations(db.url, dir);
    const file = join(dir, migrationNames[0]!, 'migration.sql');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- an edit after the fact\n`);

    await expect(applyMigrations(db.url, dir)).rejects.toThrow(`migration ${migrationNames[0]} was edited after it was applied (checksum differs)`);
  });

  it('rolls a failing migration back entirely and reports it', async () => {
    const dir = copyOfMigrations();
    await applyMigrations(db.url, dir);
    const name = '99991231000000_broken';
    cpSync(join(dir, migrationNames[0]!), join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'migration.sql'), 'CREATE TABLE "public"."half_done" ("id" TEXT);\nSELECT * FROM "no_such_table";\n');

    await expect(applyMigrations(db.url, dir)).rejects.toThrow(`migration ${name} failed: relation "no_such_table" does not exist`);
    const state = await withClient(db.url, async (client) => ({
      table: (await client.query(`SELECT to_regclass('public.half_done') AS t`)).rows[0].t,
      rows: (await client.query('SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1', [name])).rowCount,
    }));
    expect(state).toEqual({ table: null, rows: 0 });
  });

  it('creates the database when it is missing and leaves an existing one alone', async () => {
    await db.drop();
    const exists = () =>
      withClient(testDatabaseUrl(), async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name])).rowCount);
    expect(await exists()).toBe(0);

    await ensureDatabase(db.url);
    expect(await exists()).toBe(1);
    await applyMigrations(db.url, MIGRATIONS_DIR);
    await ensureDatabase(db.url);
    expect(await applyMigrations(db.url, MIGRATIONS_DIR)).toEqual({ applied: [], alreadyApplied: migrationNames });
  });

  it('reads migrations in name order with the checksum Prisma computes', () => {
    const migrations = readMigrations(MIGRATIONS_DIR);
    expect(migrations.map((migration) => migration.name)).toEqual(migrationNames);
    for (const migration of migrations) {
      expect(migration.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
