// Jest transform: TypeScript through swc; ESM-only packages in node_modules (NestJS 12,
// cookie, …) rewritten to CommonJS, because Node 20's require(esm) is not available inside
// Jest's module registry. Plain CommonJS dependencies pass through untouched (and fast).
const { createTransformer } = require('@swc/jest');

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
  getCacheKey(src, filename, options) {
    return ts.getCacheKey(src, filename, options) + (filename.includes('/node_modules/') ? 'nm1' : '');
  },
};
