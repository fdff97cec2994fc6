module.exports = { ...require('../../jest.preset'), rootDir: __dirname };
