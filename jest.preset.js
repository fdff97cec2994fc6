// Shared Jest settings for every package: swc transform, workspace libs from source.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(ts|js|mjs|cjs)$': path.join(__dirname, 'tools/jest/transform.js') },
  transformIgnorePatterns: [],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: { '^@pfs/([a-z-]+)$': path.join(__dirname, 'libs/$1/src') },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/global-teardown.ts'),
  testTimeout: 30000,
  cacheDirectory: path.join(__dirname, 'node_modules/.cache/jest'),
  // Under the test command (scripts/test.mjs), each run also writes its counts for the command's
  // total. Set here rather than as `-- --reporters` arguments: turbo would pass those to every
  // task of its run and hash them into the builds' keys too.
  ...(process.env.PFS_TEST_RESULTS_DIR ? { reporters: ['default', path.join(__dirname, 'scripts/lib/jest-results-reporter.cjs')] } : {}),
};
