// `pnpm bench`: from a fresh clone, installs, generates and builds like the up command, then runs
// the benchmark (scripts/lib/bench-run.mjs), whose modules need the installed dependencies and
// the built libraries and so are loaded only once those exist. BENCH_SKIP_BUILD=1 skips the
// preparation when the workspace is known to be built.
import { prepareWorkspace } from './lib/workspace.mjs';

if (!process.env.BENCH_SKIP_BUILD) await prepareWorkspace();
await import('./lib/bench-run.mjs');
