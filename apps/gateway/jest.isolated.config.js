const path = require('node:path');

// End-to-end files that must own their processes: they kill or restart an app, flush Redis, or
// need settings the shared stack does not have. Each starts its own stack, on its own queue
// prefix and its own database (cloned from the run's: a stack's sweepers read every due row of
// their database), so two files run at once.
module.exports = {
  ...require('../../jest.preset'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/e2e-isolated/**/*.spec.ts'],
  globalTeardown: path.join(__dirname, 'test/e2e-isolated/support/isolated.global-teardown.ts'),
  maxWorkers: 2,
  // After every test file: the ledger's books are sound.
  setupFilesAfterEnv: [path.join(__dirname, '../../libs/testing/src/ledger-invariants.setup.ts')],
};
