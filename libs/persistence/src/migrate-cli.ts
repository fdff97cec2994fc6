import { join } from 'node:path';
import { applyMigrations, ensureDatabase } from './migration-runner';

// `pnpm migrate`: creates the database if needed and applies pending migrations.
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs';
  const dir = process.env.MIGRATIONS_DIR ?? join(__dirname, '../../../prisma/migrations');
  await ensureDatabase(databaseUrl);
  const result = await applyMigrations(databaseUrl, dir);
  process.stdout.write(
    `${JSON.stringify({ level: 'info', msg: 'migrations applied', applied: result.applied, alreadyApplied: result.alreadyApplied.length })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`migration failed: ${(error as Error).message}\n`);
  process.exit(1);
});
