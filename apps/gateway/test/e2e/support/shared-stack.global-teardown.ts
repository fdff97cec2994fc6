import { rmSync } from 'node:fs';
import { dropTestDatabase } from '@pfs/testing';
import { HANDLE, type SharedStackHandle } from './shared-stack.global-setup';

/** Stops the shared stack (gateway first), then drops the run's database. */
export default async function sharedStackTeardown(): Promise<void> {
  const handle = (globalThis as Record<symbol, SharedStackHandle | undefined>)[HANDLE];
  if (handle) {
    await handle.stack.stop();
    await handle.dns.stop();
    await Promise.all([...handle.logs.values()].map((stream) => new Promise((resolve) => stream.end(resolve))));
    // PFS_E2E_KEEP_LOGS=1 keeps the apps' logs for a look after the run.
    if (process.env.PFS_E2E_KEEP_LOGS === '1') process.stdout.write(`shared stack logs kept in ${handle.logDir}\n`);
    else rmSync(handle.logDir, { recursive: true, force: true });
  }
  if (process.env.DATABASE_URL && process.env.DATABASE_URL !== process.env.PFS_TEST_TEMPLATE_URL) await dropTestDatabase(process.env.DATABASE_URL);
}
