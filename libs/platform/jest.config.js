// These tests touch no database: no per-run database is cloned (the preset's global setup).
module.exports = { ...require('../../jest.preset'), rootDir: __dirname, globalSetup: undefined, globalTeardown: undefined };
