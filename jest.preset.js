// Shared Jest settings for every package: swc transform, workspace libs from source.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

/**
 * The dependencies whose files go through the transform: only packages that declare themselves
 * ES modules (`"type": "module"`, e.g. NestJS 12) may need rewriting to CommonJS. Every other
 * file of node_modules loads as it is, with no transform, hashing or cache entry: on a fresh
 * clone that is tens of thousands of files a run would otherwise hash and write.
 */
function esModulePackageDirs() {
  const store = path.join(__dirname, 'node_modules/.pnpm');
  if (!existsSync(store)) return [];
  return readdirSync(store).filter((dir) => {
    const at = dir.indexOf('@', 1);
    if (at < 0) return false;
    const manifest = path.join(store, dir, 'node_modules', dir.slice(0, at).replace('+', '/'), 'package.json');
    try {
      return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module';
    } catch {
      return false;
    }
  });
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(ts|js|mjs|cjs)$': path.join(__dirname, 'tools/jest/transform.js') },
  transformIgnorePatterns: [`/node_modules/\\.pnpm/(?!(${esModulePackageDirs().map(escape).join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: { '^@pfs/([a-z-]+)$': path.join(__dirname, 'libs/$1/src') },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/global-teardown.ts'),
  testTimeout: 30000,
  cacheDirectory: path.join(__dirname, 'node_modules/.cache/jest'),
  // One transform cache for every project (jest names it after the id): see tools/jest/transform.js.
  id: 'pfs',
  // Under the test command (scripts/test.mjs), each run also writes its counts for the command's
  // total. Set here rather than as `-- --reporters` arguments: turbo would pass those to every
  // task of its run and hash them into the builds' keys too.
  ...(process.env.PFS_TEST_RESULTS_DIR ? { reporters: ['default', path.join(__dirname, 'scripts/lib/jest-results-reporter.cjs')] } : {}),
};
