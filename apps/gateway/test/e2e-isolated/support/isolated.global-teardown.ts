import { createPrismaClient } from '@pfs/persistence';
import { dropTestDatabase } from '@pfs/testing';

/**
 * Drops the run's database, and every database a file of the run cloned from it (`isolatedDatabase`
 * in e2e-stack.ts names them `<run database>_<hex>`). Here rather than when a file stops its
 * stack: the ledger invariants of a file read its database after the file's own hooks.
 */
export default async function isolatedGlobalTeardown(): Promise<void> {
  const runUrl = process.env.DATABASE_URL;
  if (!runUrl || runUrl === process.env.PFS_TEST_TEMPLATE_URL) return;
  const run = decodeURIComponent(new URL(runUrl).pathname.slice(1));
  const prisma = createPrismaClient({ databaseUrl: runUrl, poolSize: 1, applicationName: 'isolated-teardown' });
  let clones: string[];
  try {
    const rows = await prisma.$queryRaw<Array<{ datname: string }>>`SELECT datname FROM pg_database WHERE starts_with(datname, ${`${run}_`})`;
    clones = rows.map((row) => row.datname).filter((name) => /^_[0-9a-f]+$/.test(name.slice(run.length)));
  } finally {
    await prisma.$disconnect();
  }
  for (const name of clones) {
    const url = new URL(runUrl);
    url.pathname = `/${name}`;
    await dropTestDatabase(url.toString());
  }
  await dropTestDatabase(runUrl);
}
