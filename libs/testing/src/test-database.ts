import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';

const MIGRATIONS = join(__dirname, '../../../prisma/migrations');
const TEMPLATE_LOCK = 72707370;

function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

async function onMaintenance<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates the template database (once, under a lock) and clones it into a fresh database for
 * one jest run. Returns the new database's URL.
 */
export async function createTestDatabase(templateUrl: string): Promise<string> {
  const template = databaseName(templateUrl);
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await onMaintenance(templateUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { applyMigrations, ensureDatabase } = await import('@pfs/persistence');
      await ensureDatabase(templateUrl);
      await applyMigrations(templateUrl, MIGRATIONS);
      // CREATE DATABASE … TEMPLATE needs the template free of sessions; the migration
      // runner's connection has closed, but give PostgreSQL a moment to notice.
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return withDatabase(templateUrl, name);
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  if (!/^[A-Za-z0-9_]+$/.test(name)) return;
  await onMaintenance(url, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * Drops the database and every clone a test file made of it (`<name>_<hex>`), on one maintenance
 * connection: a run's teardown, cheap enough to finish within the test command's exit bound.
 */
export async function dropTestDatabaseAndClones(url: string): Promise<void> {
  const name = databaseName(url);
  if (!/^[A-Za-z0-9_]+$/.test(name)) return;
  await onMaintenance(url, async (client) => {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`${name}_`]);
    const clones = rows.map((row) => row.datname).filter((clone) => /^_[0-9a-f]+$/.test(clone.slice(name.length)));
    for (const database of [...clones, name]) await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });
}

/**
 * Resolves once a session of this database waits for a row or table lock: the event a lock
 * test waits for, instead of sleeping and hoping the other transaction got there. Its own
 * connection, so a test whose pool is busy holding the lock can still ask.
 */
export async function lockWaiterAppears(databaseUrl: string, timeoutMs = 20000): Promise<void> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'pfs-lock-probe' });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0].waiting > 0) return;
      if (Date.now() > deadline) throw new Error(`no session of the database waited for a lock within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

/**
 * A fresh database beside the run's (named after it, so the run's teardown drops it too) that
 * holds only the given schemas, migrated as a service's own database is: `--schema` alone.
 */
export async function createSchemaDatabase(templateUrl: string, schemas: readonly string[]): Promise<string> {
  const url = withDatabase(templateUrl, `${databaseName(templateUrl)}_${randomBytes(4).toString('hex')}`);
  const { applyMigrations, ensureDatabase } = await import('@pfs/persistence');
  await ensureDatabase(url);
  await applyMigrations(url, MIGRATIONS, { schemas });
  return url;
}
