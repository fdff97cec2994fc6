// The apps' initContainer gate (k8s/base): exits 0 once every migration of this release
// (prisma/migrations, relative to the working directory) is recorded as finished in
// DATABASE_URL's _prisma_migrations table, which the migrate Job fills. A database that is
// ahead (a later release migrated it, then this one was rolled back to) passes: that is why
// this is not `prisma migrate status`, which fails on any divergence.
//   node wait-for-migrations.mjs            check once: exit 0 (ready) or 1 (not yet)
//   node wait-for-migrations.mjs --wait     check every 2 s until ready
// Output never contains DATABASE_URL (it holds the password).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const MIGRATIONS_DIR = 'prisma/migrations';
const POLL_MS = 2000;

function localMigrations() {
  return readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(MIGRATIONS_DIR, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort();
}

/** The migrations this release needs that the database has not finished: [] means ready. */
async function missing(databaseUrl, wanted) {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'pfs-wait-for-migrations', connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const finished = new Set(rows.map((row) => row.migration_name));
    return wanted.filter((name) => !finished.has(name));
  } catch (error) {
    if (error.code === '42P01') return wanted; // no _prisma_migrations yet: nothing applied
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function check(databaseUrl, wanted) {
  try {
    const pending = await missing(databaseUrl, wanted);
    if (pending.length === 0) {
      process.stdout.write(`all ${wanted.length} migration(s) applied\n`);
      return true;
    }
    process.stdout.write(`waiting for the migrate Job: not applied yet: ${pending.join(', ')}\n`);
  } catch (error) {
    // pg's messages name the host and user at most, never the password.
    process.stdout.write(`waiting for the database: ${error.code ?? 'error'} ${error.message}\n`);
  }
  return false;
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write('DATABASE_URL is not set\n');
    return 2;
  }
  const wanted = localMigrations();
  if (wanted.length === 0) {
    process.stderr.write(`no migrations found in ${MIGRATIONS_DIR}\n`);
    return 2;
  }
  const wait = process.argv.includes('--wait');
  for (;;) {
    if (await check(databaseUrl, wanted)) return 0;
    if (!wait) return 1;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`wait-for-migrations failed: ${error.message}\n`);
    process.exit(2);
  },
);
