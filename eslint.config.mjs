// One lint setup for every package (each runs `eslint src [test]` from its folder). Syntax-level
// typescript-eslint rules only: type-aware linting would re-run the type checker, which
// `turbo run typecheck` already does.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  [
    'process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'fetch', 'AbortController', 'AbortSignal',
    'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate',
    'structuredClone', 'queueMicrotask', 'TextEncoder', 'TextDecoder', 'require', 'module', 'exports',
    '__dirname', '__filename',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  globalIgnores(['**/dist/', '**/node_modules/', '**/coverage/', '.data/', 'libs/persistence/src/generated/', 'libs/client/src/generated/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: nodeGlobals },
    rules: {
      // `_`-prefixed names are deliberate (a handler's unused argument, a discarded tuple member).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  {
    // CommonJS files (jest configs, the jest reporter) load modules with require().
    files: ['**/*.cjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Scripts and tests talk to the terminal.
    files: ['**/*.spec.ts', '**/test/**', '**/*.mjs', '**/*.cjs', '**/cli.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Hexagonal rule: the domain is plain TypeScript; frameworks and infrastructure live in adapters.
    files: ['**/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nestjs/*', '@prisma/*', 'bullmq', 'bullmq/*', 'ioredis', 'ioredis/*', '@pfs/persistence', '@pfs/persistence/*', '@pfs/messaging', '@pfs/messaging/*'],
              message: 'domain/ stays free of Nest, Prisma, BullMQ and Redis: depend on a port in application/ports and implement it in adapters/.',
            },
          ],
        },
      ],
    },
  },
);
