const path = require('node:path');

// The gateway's unit and in-process tests: no process of any app is started. The end-to-end
// tests are two projects of their own: jest.e2e.config.js (one shared stack) and
// jest.isolated.config.js (files that own their processes).
module.exports = {
  ...require('../../jest.preset'),
  rootDir: __dirname,
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/e2e-isolated/', '<rootDir>/test/with-services/'],
};
