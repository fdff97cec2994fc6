// Shared by the up command (stack.mjs), the test command (test.mjs) and the benchmark: the steps
// from a fresh clone to built apps, and the small pieces of terminal output they share. Only
// Node built-ins here: this runs before `pnpm install` has put anything in node_modules.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const PNPM_VERSION = '12.21.0';

const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (colour ? `\x1b[${code}m${text}\x1b[0m` : String(text));
export const bold = paint('1');
export const dim = paint('2');
export const green = paint('32');
export const red = paint('31');
export const cyan = paint('36');

export function seconds(sinceMs) {
  return `${((Date.now() - sinceMs) / 1000).toFixed(1)} s`;
}

/** A line that says what is missing; printed alone, then the process exits 1. */
export class Fatal extends Error {}

/**
 * turbo starts each package's script through the package manager, so `pnpm` must be on PATH.
 * Under `npx pnpm run …` it is; when a script is started with plain `node`, a shim provides it.
 */
export function ensurePnpmOnPath(env = process.env) {
  const found = (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, 'pnpm'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (found) return;
  const shimDir = join(root, '.data/bin');
  mkdirSync(shimDir, { recursive: true });
  writeFileSync(join(shimDir, 'pnpm'), `#!/bin/sh\nexec npx -y pnpm@${PNPM_VERSION} "$@"\n`, { mode: 0o755 });
  env.PATH = `${shimDir}${delimiter}${env.PATH ?? ''}`;
}

const running = new Set();

/** Passes a signal on to the commands still running (a `kill -INT` reaches only this process). */
export function signalChildren(signal) {
  for (const child of running) child.kill(signal);
}

/**
 * Signals the commands still running and waits until they have exited (SIGKILL after
 * `graceMs`), so none outlives this process with its own children (turbo's tasks, their apps).
 */
export async function stopChildren(signal, graceMs = 15000) {
  const children = [...running];
  const send = (child, name) => {
    try {
      if (child.group) process.kill(-child.pid, name);
      else child.kill(name);
    } catch {
      // already gone
    }
  };
  for (const child of children) send(child, signal);
  const exited = Promise.all(children.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)))));
  const timer = setTimeout(() => children.forEach((child) => send(child, 'SIGKILL')), graceMs);
  await exited;
  clearTimeout(timer);
  // The group may outlive its leader (the node wrapper): make sure none of it is left.
  for (const child of children) if (child.group) send(child, 'SIGKILL');
}

/** Runs a command to completion; output inherited or captured (`quiet`), shown only on failure. */
export function run(command, args, { env = process.env, quiet = false, cwd = root, group = false } = {}) {
  return new Promise((resolve, reject) => {
    // `group`: a process group of its own, so stopChildren reaches every process under it (turbo's
    // native binary behind its node wrapper, the tasks, their apps), as a terminal's Ctrl-C would.
    const child = spawn(command, args, { cwd, env, detached: group, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'] });
    child.group = group;
    running.add(child);
    child.once('exit', () => running.delete(child));
    let output = '';
    if (quiet) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

/** One titled step: `▸ title … 1.2 s`; a failing step prints its captured output and stops. Returns its time in ms. */
export async function step(title, command, args, options = {}) {
  const started = Date.now();
  process.stdout.write(`${cyan('▸')} ${title} `);
  const result = await run(command, args, { quiet: true, ...options });
  if (result.code !== 0) {
    process.stdout.write(`${red('failed')}\n`);
    process.stdout.write(result.output.trimEnd().split('\n').slice(-60).join('\n') + '\n');
    throw new Fatal(`${title} failed (${command} ${args.join(' ')} exited ${result.code})`);
  }
  process.stdout.write(`${dim(seconds(started))}\n`);
  return { ...result, ms: Date.now() - started };
}

/** The environment turbo runs in: no telemetry, no update check. */
export function turboEnvironment() {
  ensurePnpmOnPath();
  return { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1', DO_NOT_TRACK: '1' };
}

/** Install and generate: what a fresh clone needs before turbo can run. Returns the time of each. */
export async function installAndGenerate() {
  ensurePnpmOnPath();
  const install = await step('install dependencies (pnpm install --frozen-lockfile)', 'pnpm', ['install', '--frozen-lockfile'], { env: { ...process.env, CI: 'true' } });
  const generate = await step('generate the Prisma client', process.execPath, [join(root, 'scripts/prisma-generate.mjs')]);
  return { install: install.ms, generate: generate.ms };
}

/** From a fresh clone to built apps: install, generate the Prisma client, build every package. */
export async function prepareWorkspace() {
  await installAndGenerate();
  const turboEnv = turboEnvironment();
  await step('build every package (turbo run build)', join(root, 'node_modules/.bin/turbo'), ['run', 'build', '--output-logs=errors-only'], { env: turboEnv });
  return turboEnv;
}

/** The built libraries, loaded only once they exist. */
export function builtLibraries() {
  const require = createRequire(import.meta.url);
  return {
    devstack: require(join(root, 'libs/devstack/dist/index.js')),
    persistence: require(join(root, 'libs/persistence/dist/index.js')),
  };
}

/** PostgreSQL and Redis, with a line for each thing used or started. */
export async function infrastructure(devstack, options) {
  const started = Date.now();
  process.stdout.write(`${cyan('▸')} PostgreSQL and Redis\n`);
  try {
    const infra = await devstack.ensureInfrastructure({
      root,
      log: (line) => process.stdout.write(`  ${dim(line)}\n`),
      ...options,
    });
    process.stdout.write(`  ${dim(`PostgreSQL ${redact(infra.databaseUrl)}, Redis ${redact(infra.redisUrl)} (${seconds(started)})`)}\n`);
    return infra;
  } catch (error) {
    if (error?.name === 'InfrastructureError') throw new Fatal(error.message);
    throw error;
  }
}

/** A URL for the terminal: without its password. */
export function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A copy of a database URL that names another database on the same server. */
export function withDatabase(url, name) {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
