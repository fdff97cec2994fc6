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
};
