// The client against a stand-in HTTP server: no database, no per-run database clone.
module.exports = { ...require('../../jest.preset'), rootDir: __dirname, globalSetup: undefined, globalTeardown: undefined };
