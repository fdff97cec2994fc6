const path = require('node:path');

// End-to-end files that must own their processes: they kill or restart an app, flush Redis, or
// need settings the shared stack does not have. Each starts its own stack; one file at a time.
module.exports = {
  ...require('../../jest.preset'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/e2e-isolated/**/*.spec.ts'],
  maxWorkers: 1,
  // After every test file: the ledger's books are sound.
  setupFilesAfterEnv: [path.join(__dirname, '../../libs/testing/src/ledger-invariants.setup.ts')],
};
