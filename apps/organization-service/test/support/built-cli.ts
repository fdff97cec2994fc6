import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
  execFileSync(join(PACKAGE_DIR, '../../node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: PACKAGE_DIR, stdio: 'pipe' });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const started = Date.now();
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
      resolve({ code, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}
