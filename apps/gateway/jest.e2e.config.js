const path = require('node:path');

// End to end against one shared stack: the global setup starts every app once (with the
// settings in test/e2e/support/shared-stack.ts); files are isolated by organization and run two
// at a time. test/with-services/ boots the gateway in the test's own process against the same
// stack's services.
module.exports = {
  ...require('../../jest.preset'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/e2e/**/*.spec.ts', '<rootDir>/test/with-services/**/*.spec.ts'],
  globalSetup: path.join(__dirname, 'test/e2e/support/shared-stack.global-setup.ts'),
  globalTeardown: path.join(__dirname, 'test/e2e/support/shared-stack.global-teardown.ts'),
  maxWorkers: 2,
  // After every test file: the ledger's books are sound.
  setupFilesAfterEnv: [path.join(__dirname, '../../libs/testing/src/ledger-invariants.setup.ts')],
};
