import { ledgerInvariantViolations } from './ledger-invariants';
import { testDatabaseUrl } from './test-env';

// setupFilesAfterEnv of the ledger's and the gateway's jest runs: after every test file, the
// books of the run's database must be sound, whatever the file did to them.
afterAll(async () => {
  expect(await ledgerInvariantViolations(testDatabaseUrl())).toEqual([]);
});
