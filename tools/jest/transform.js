// Jest transform: TypeScript through swc; ESM-only packages in node_modules (NestJS 12,
// cookie, …) rewritten to CommonJS, because Node 20's require(esm) is not available inside
// Jest's module registry. Plain CommonJS dependencies pass through untouched (and fast).
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { createTransformer } = require('@swc/jest');

const TRANSFORM_KEY = [readFileSync(__filename, 'utf8'), require('@swc/core/package.json').version, require('@swc/jest/package.json').version].join('\0');

const swcOptions = (moduleType) => ({
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: moduleType },
  sourceMaps: 'inline',
});

const ts = createTransformer(swcOptions('commonjs'));
const esm = createTransformer({ ...swcOptions('commonjs'), jsc: { ...swcOptions('commonjs').jsc, parser: { syntax: 'ecmascript' } } });
const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s+[\w{*]|export\s*\{|export\s+default)/m;

module.exports = {
  process(src, filename, options) {
    if (/\.tsx?$/.test(filename)) return ts.process(src, filename, options);
    if (filename.includes('/node_modules/') && (filename.endsWith('.mjs') || ESM_SYNTAX.test(src))) {
      return esm.process(src, filename, options);
    }
    return { code: src };
  },
  // What a file becomes depends on this file, swc and the file alone, not on the project that asks:
  // with the preset's shared `id`, every jest project of a run (and of the next) reuses one
  // transform of a library source or an ES-module dependency instead of making its own.
  getCacheKey(src, filename, options) {
    return createHash('sha1')
      .update(TRANSFORM_KEY)
      .update('\0')
      .update(filename)
      .update('\0')
      .update(src)
      .update(options.instrument ? '\0instrument' : '')
      .update(options.supportsStaticESM ? '\0esm' : '')
      .digest('hex');
  },
};
