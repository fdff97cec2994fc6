import { join } from 'node:path';
import { applyMigrations, ensureDatabase } from './migration-runner';

// `pnpm migrate [--schema <name>]...`: creates the database if needed and applies pending
// migrations; with --schema, only the statements of those schemas (a service's own database).
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs';
  const dir = process.env.MIGRATIONS_DIR ?? join(__dirname, '../../../prisma/migrations');
  const args = process.argv.slice(2);
  const schemas = args.flatMap((arg, index) => (arg === '--schema' && args[index + 1] ? [args[index + 1]!] : []));
  const unknown = args.filter((arg, index) => arg !== '--schema' && args[index - 1] !== '--schema');
  if (unknown.length || args.length !== schemas.length * 2) throw new Error(`usage: migrate [--schema <name>]... (not ${args.join(' ')})`);
  await ensureDatabase(databaseUrl);
  const result = await applyMigrations(databaseUrl, dir, schemas.length ? { schemas } : {});
  process.stdout.write(
    `${JSON.stringify({ level: 'info', msg: 'migrations applied', applied: result.applied, alreadyApplied: result.alreadyApplied.length, ...(schemas.length ? { schemas } : {}) })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`migration failed: ${(error as Error).message}\n`);
  process.exit(1);
});
