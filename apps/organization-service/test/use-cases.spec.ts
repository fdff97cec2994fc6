import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isolateQueues } from '@pfs/testing';

// The use cases against real PostgreSQL, one file per use case in test/use-cases/, all run in
// this one jest file: each jest file loads Prisma and the use cases anew (about a second of
// CPU each), which for files of a few fast tests costs more than the tests themselves.
// One queue prefix for the whole file, set before the files are loaded (they run one after another).
isolateQueues('org-use-cases');
const folder = join(__dirname, 'use-cases');
for (const file of readdirSync(folder).filter((name) => name.endsWith('.cases.ts')).sort()) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(join(folder, file));
}
