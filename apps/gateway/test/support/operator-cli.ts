import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../../../..');
export const CLI = join(ROOT, 'apps/organization-service/dist/cli.js');
const CLI_ENTRY = join(ROOT, 'apps/organization-service/dist/adapters/cli/operator-cli.js');

type RunOperatorCli = (argv: readonly string[], out: { stdout(text: string): void; stderr(text: string): void }) => Promise<number>;

const run = promisify(execFile);
let inProcess: RunOperatorCli | undefined;

/**
 * The operator CLI (`--json`), its output parsed. `inProcess`: the built CLI's own entry point
 * runs in this test's process with this process's environment, which must then be the stack's
 * (a Node process with Nest and Prisma costs a second or more of CPU; this costs milliseconds
 * after the first call). Otherwise `dist/cli.js` runs as its own process with `env`.
 */
export async function operatorCli<T>(args: string[], options: { inProcess: boolean; env: NodeJS.ProcessEnv }): Promise<T> {
  if (!options.inProcess) {
    const { stdout } = await run(process.execPath, [CLI, ...args, '--json'], { env: { ...process.env, ...options.env }, cwd: ROOT });
    return JSON.parse(stdout) as T;
  }
  inProcess ??= ((await import(CLI_ENTRY)) as { runOperatorCli: RunOperatorCli }).runOperatorCli;
  let stdout = '';
  let stderr = '';
  const code = await inProcess([...args, '--json'], { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
  if (code !== 0) throw new Error(`operator CLI ${args[0]} exited ${code}: ${stderr.trim()}`);
  return JSON.parse(stdout) as T;
}
