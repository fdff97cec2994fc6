// `pnpm generate`: the Prisma client into libs/persistence/src/generated. `prisma generate` only
// needs the wasm query compiler, but the CLI insists that the native schema engine exists and
// tries to download it when it does not, which fails offline. Point it at a stand-in that says
// why it cannot be used; `prisma migrate deploy` needs the real engine (see README, Migrations).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };

if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const standIn = join(root, '.data/bin/prisma-schema-engine-unavailable');
  if (!existsSync(standIn)) {
    mkdirSync(dirname(standIn), { recursive: true });
    writeFileSync(
      standIn,
      '#!/bin/sh\necho "the Prisma schema engine is not installed here: migrations are applied by pnpm migrate (libs/persistence)" >&2\nexit 1\n',
    );
    chmodSync(standIn, 0o755);
  }
  env.PRISMA_SCHEMA_ENGINE_BINARY = standIn;
}

const prisma = join(root, 'node_modules/.bin/prisma');
if (!existsSync(prisma)) {
  process.stderr.write('node_modules/.bin/prisma is missing: run pnpm install first\n');
  process.exit(1);
}
const result = spawnSync(prisma, ['generate', ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
