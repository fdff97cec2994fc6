import { dropTestDatabaseAndClones } from '@pfs/testing';

/**
 * Drops the run's database, and every database a file of the run cloned from it (`isolatedDatabase`
 * in e2e-stack.ts names them `<run database>_<hex>`). Here rather than when a file stops its
 * stack: the ledger invariants of a file read its database after the file's own hooks.
 */
export default async function isolatedGlobalTeardown(): Promise<void> {
  const runUrl = process.env.DATABASE_URL;
  if (!runUrl || runUrl === process.env.PFS_TEST_TEMPLATE_URL) return;
  await dropTestDatabaseAndClones(runUrl);
}
