// An app's build (`node ../../tools/build/swc-build.mjs` from its folder): src/**/*.ts → dist/
// with source maps, through swc, with the same options as the jest transform
// (tools/jest/transform.js): legacy decorators and their metadata, as NestJS needs. No type
// checking here: the app's `typecheck` task (tsc --noEmit of src and test) does that once.
// Libraries still build with tsc: the packages that use them need their .d.ts.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';

const swc = createRequire(import.meta.url)('@swc/core');
const pkg = process.cwd();
const srcDir = join(pkg, 'src');
const outDir = join(pkg, 'dist');

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
  swcrc: false,
  configFile: false,
};

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// A clean dist: a source deleted since the last build leaves no module behind.
rmSync(outDir, { recursive: true, force: true });
const files = sources(srcDir);
await Promise.all(
  files.map(async (file) => {
    const out = join(outDir, relative(srcDir, file)).replace(/\.ts$/, '.js');
    const { code, map } = await swc.transformFile(file, { ...options, filename: file, sourceFileName: relative(dirname(out), file) });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${code}\n//# sourceMappingURL=${basename(out)}.map\n`);
    if (map) writeFileSync(`${out}.map`, map);
  }),
);
process.stdout.write(`swc: ${files.length} files → ${relative(pkg, outDir)}/\n`);
