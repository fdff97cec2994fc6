const path = require('node:path');

module.exports = {
  ...require('../../jest.preset'),
  rootDir: __dirname,
  // After every test file: the ledger's books are sound.
  setupFilesAfterEnv: [path.join(__dirname, '../../libs/testing/src/ledger-invariants.setup.ts')],
};
