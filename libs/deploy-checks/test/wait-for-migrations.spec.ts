import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { applyMigrations, ensureDatabase } from '@pfs/persistence';
import { dropTestDatabase, eventually, isolateQueues, testDatabaseUrl } from '@pfs/testing';
import { repoPath, ROOT } from './support/repo';

isolateQueues('deploy-wait');

// docker/wait-for-migrations.mjs, the apps' initContainer gate, run as the image runs it (node,
// a working directory holding prisma/migrations) against real PostgreSQL databases.
const SCRIPT = repoPath('docker/wait-for-migrations.mjs');
const MIGRATIONS = repoPath('prisma/migrations');

interface Outcome {
  code: number | null;
  output: string;
}

function gate(databaseUrl: string | undefined, options: { cwd?: string; args?: string[] } = {}): Promise<Outcome> {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  if (databaseUrl === undefined) delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...(options.args ?? [])], { cwd: options.cwd ?? ROOT, env, timeout: 20000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const databases: string[] = [];
const folders: string[] = [];

/** A new, empty database for one test. */
async function emptyDatabase(): Promise<string> {
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${url.pathname.slice(1)}_wfm_${randomBytes(3).toString('hex')}`;
  await ensureDatabase(url.toString());
  databases.push(url.toString());
  return url.toString();
}

async function query(databaseUrl: string, sql: string, values: unknown[] = []): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql, values);
  } finally {
    await client.end();
  }
}

/** A working directory whose prisma/migrations is this repository's plus one more, not applied. */
function releaseWithNextMigration(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pfs-wfm-'));
  folders.push(dir);
  cpSync(MIGRATIONS, join(dir, 'prisma/migrations'), { recursive: true });
  mkdirSync(join(dir, 'prisma/migrations', name));
  writeFileSync(join(dir, 'prisma/migrations', name, 'migration.sql'), 'SELECT 1;\n');
  return dir;
}

afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url);
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('docker/wait-for-migrations.mjs', () => {
  it('passes once every migration of the release is applied', async () => {
    const url = await emptyDatabase();
    const { applied } = await applyMigrations(url, MIGRATIONS);
    const outcome = await gate(url);
    expect(outcome).toEqual({ code: 0, output: `all ${applied.length} migration(s) applied\n` });
  });

  it('fails on a database with nothing applied yet, naming what it waits for', async () => {
    const url = await emptyDatabase();
    const outcome = await gate(url);
    expect(outcome.code).toBe(1);
    expect(outcome.output).toContain('waiting for the migrate Job: not applied yet: 20261121000000_init');
  });

  it('fails while a migration of the release is missing or unfinished, and passes when the database is ahead', async () => {
    const url = await emptyDatabase();
    await applyMigrations(url, MIGRATIONS);
    const next = '29990101000000_next';
    const release = releaseWithNextMigration(next);
    expect((await gate(url, { cwd: release })).output).toContain(`not applied yet: ${next}`);

    // Started but not finished (a failed run of the Job): still not ready.
    await query(url, `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, 'x', $2, now())`, ['00000000-0000-0000-0000-000000000001', next]);
    expect((await gate(url, { cwd: release })).code).toBe(1);

    // A later release migrated this database; the current one (without that migration) starts.
    await query(url, `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at) VALUES ($1, 'x', $2, now(), now())`, [
      '00000000-0000-0000-0000-000000000002',
      '29991231000000_future',
    ]);
    expect((await gate(url)).code).toBe(0);
  });

  it('with --wait, keeps polling until the migrate Job has applied the migrations', async () => {
    const url = await emptyDatabase();
    const child = spawn(process.execPath, [SCRIPT, '--wait'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Its first check has found the migrations missing: with --wait it keeps running.
    await eventually(async () => (output.includes('waiting for the migrate Job') || child.exitCode !== null ? true : undefined), 20000);
    expect(child.exitCode).toBeNull();
    await applyMigrations(url, MIGRATIONS);
    // It polls every 2 s; the deadline is only there so a hang fails instead of lingering.
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still waiting'), 30000)))]);
    clearTimeout(timer);
    if (code === 'still waiting') child.kill('SIGKILL');
    expect(code).toBe(0);
    expect(output).toContain('waiting for the migrate Job');
    expect(output).toContain('migration(s) applied');
  }, 60000);

  it('reports an unreachable database without printing the password from DATABASE_URL', async () => {
    const outcome = await gate('postgresql://pfs:s3cret-Pa55word@127.0.0.1:1/pfs');
    expect(outcome.code).toBe(1);
    expect(outcome.output).toMatch(/^waiting for the database: ECONNREFUSED/);
    expect(outcome.output).not.toContain('s3cret-Pa55word');
  });

  it('refuses to run without DATABASE_URL', async () => {
    expect(await gate(undefined)).toEqual({ code: 2, output: 'DATABASE_URL is not set\n' });
  });
});
