import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runOperatorCli } from '../../src/adapters/cli/operator-cli';

const PACKAGE_DIR = join(__dirname, '../..');
export const CLI_PATH = join(PACKAGE_DIR, 'dist/cli.js');

function newestSourceTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The CLI test runs the built `dist/cli.js`, as operators do. `pnpm build` normally produces
 * it; when it is missing or older than the sources, it is compiled here so the test never
 * exercises stale code.
 */
export function ensureCliBuilt(): void {
  const builtAt = statSync(CLI_PATH, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (builtAt >= newestSourceTime(join(PACKAGE_DIR, 'src'))) return;
  execFileSync(process.execPath, [join(PACKAGE_DIR, '../../tools/build/swc-build.mjs')], { cwd: PACKAGE_DIR, stdio: 'pipe' });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `dist/cli.js` as a real process: what only a process shows (exit code, nothing else on stdout, no handle left open). */
export function runCliProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd: PACKAGE_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs one command in this process, exactly as `src/cli.ts` does (same entry point, same
 * mapping of a thrown error to exit code 1), with `env` over process.env while it runs. A
 * process costs seconds of CPU for Node, Nest and Prisma to load; this costs milliseconds.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  const out = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text) };
  try {
    const code = await runOperatorCli(args, out).catch((error: unknown) => {
      out.stderr(`error: ${(error as Error).message}\n`);
      return 1;
    });
    return { code, stdout, stderr };
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
