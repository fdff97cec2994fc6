import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { postgreSplitterOptions, splitQuery } from 'dbgate-query-splitter';
import { Client } from 'pg';

/**
 * Applies `prisma/migrations/<timestamp>_<name>/migration.sql` in order and records them in
 * Prisma's own `_prisma_migrations` table (same columns, same sha256 checksum), so that
 * `prisma migrate deploy` sees them as applied wherever the schema engine exists.
 */
export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

// Prisma's advisory lock key, so this runner and `prisma migrate deploy` never run together.
const PRISMA_ADVISORY_LOCK = 72707369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(migrationsDir: string): MigrationFile[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrationOptions {
  /**
   * Only the statements of these schemas: a database that holds some services alone (the
   * ledger's own, say) gets their tables and nothing of the others'. Every statement of the
   * history names exactly one schema; one that names several cannot be split and fails here.
   * Recorded in each migration's `logs`, so a database is never migrated for two selections.
   */
  schemas?: readonly string[];
}

/** What `_prisma_migrations.logs` says of a migration applied to some schemas only. */
const scopeNote = (schemas: readonly string[] | undefined) => (schemas ? `schemas: ${[...schemas].sort().join(', ')}` : null);

/** The schemas a statement touches: `"schema".` qualifiers and `CREATE SCHEMA` names, comments aside. */
export function schemasOf(statement: string): string[] {
  const code = statement.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const names = new Set<string>();
  for (const match of code.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*\./g)) names.add(match[1]!);
  for (const match of code.matchAll(/\bSCHEMA\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([A-Za-z_][A-Za-z0-9_]*)"?/gi)) names.add(match[1]!);
  return [...names].sort();
}

/** A migration's statements that belong to the selected schemas, in order. */
export function statementsFor(migration: MigrationFile, schemas: readonly string[]): string[] {
  const selected = new Set(schemas);
  const statements = splitQuery(migration.sql, postgreSplitterOptions).map((item) => (typeof item === 'string' ? item : item.text));
  return statements.filter((statement) => {
    const touched = schemasOf(statement);
    const inside = touched.filter((name) => selected.has(name));
    if (inside.length && inside.length < touched.length) {
      throw new Error(`migration ${migration.name}: a statement touches ${touched.join(' and ')}, so it cannot be applied to ${schemas.join(', ')} alone`);
    }
    // A statement that names no schema (an extension, say) belongs to every database.
    return touched.length === 0 || inside.length > 0;
  });
}

export async function applyMigrations(databaseUrl: string, migrationsDir: string, options: MigrationOptions = {}): Promise<MigrationResult> {
  const scope = scopeNote(options.schemas);
  const client = new Client({ connectionString: databaseUrl, application_name: 'pfs-migrate' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; logs: string | null }>(
      'SELECT migration_name, checksum, finished_at, logs FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((row) => [row.migration_name, row]));
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const migration of readMigrations(migrationsDir)) {
      const previous = done.get(migration.name);
      if (previous?.finished_at) {
        if (previous.checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was edited after it was applied (checksum differs)`);
        }
        if ((previous.logs?.startsWith('schemas: ') ? previous.logs : null) !== scope) {
          throw new Error(`migration ${migration.name} was applied to ${previous.logs ?? 'every schema'}, not to ${scope ?? 'every schema'}: one database, one selection`);
        }
        result.alreadyApplied.push(migration.name);
        continue;
      }
      if (previous) {
        throw new Error(`migration ${migration.name} failed earlier and must be resolved by hand`);
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, started_at) VALUES ($1, $2, $3, $4, now())',
          [id, migration.checksum, migration.name, scope],
        );
        if (options.schemas) {
          for (const statement of statementsFor(migration, options.schemas)) await client.query(statement);
        } else {
          await client.query(migration.sql);
        }
        await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]).catch(() => undefined);
    await client.end();
  }
}

/** The database named in the URL, checked to be a plain name, and a client of the server's `postgres` database to act on it. */
async function onServerOf(databaseUrl: string, verb: string): Promise<{ name: string; client: Client }> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`refusing to ${verb} database with name ${name}`);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  return { name, client };
}

/** Creates the database named in the URL when it is missing (local runs and tests). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const { name, client } = await onServerOf(databaseUrl, 'create');
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    // Another process may have created it in between.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

/** Drops the database named in the URL if it exists, with any connection still open to it (the bench's, a test's own). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const { name, client } = await onServerOf(databaseUrl, 'drop');
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
