import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { isolateQueues } from '@pfs/testing';
import { ensureInfrastructure, InfrastructureError, probeRedis } from './infrastructure';

isolateQueues('devstack');

const root = resolve(__dirname, '../../..');

function scratch(label: string): string {
  return join(tmpdir(), `pfs-${label}-${randomBytes(4).toString('hex')}`);
}

describe('ensureInfrastructure', () => {
  // One embedded PostgreSQL (initdb is the costly part) serves both facts: started on a free
  // port, and reused by a second run on the same data directory.
  it('starts an embedded PostgreSQL on a free port, answers queries, is reused by another run on the same data directory, and stops only what it started', async () => {
    const dir = scratch('embedded');
    const options = {
      root,
      database: 'postgres',
      forceEmbeddedPostgres: true,
      postgresDataDir: join(dir, 'postgres'),
      logDir: join(dir, 'logs'),
      env: { ...process.env, DATABASE_URL: undefined },
    };
    const infra = await ensureInfrastructure(options);
    try {
      const port = Number(new URL(infra.databaseUrl).port);
      expect(infra.started).toEqual([expect.stringMatching(new RegExp(`^embedded PostgreSQL 18\\.\\d+ on port ${port}$`))]);
      // Redis came from the environment or localhost, so it is not ours to start or stop.
      expect(infra.redisUrl).toBe(process.env.REDIS_URL);

      const client = new Client({ connectionString: infra.databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ version: string }>('SELECT version()');
      await client.end();
      expect(rows[0]?.version).toMatch(/^PostgreSQL 18\./);

      // Another run on the same data directory reuses it, and its stop leaves it running.
      const second = await ensureInfrastructure(options);
      expect(second.databaseUrl).toBe(infra.databaseUrl);
      expect(second.started).toEqual([]);
      await second.stop();
      const still = new Client({ connectionString: infra.databaseUrl });
      await still.connect();
      await still.end();
    } finally {
      await infra.stop();
    }
    const client = new Client({ connectionString: infra.databaseUrl, connectionTimeoutMillis: 1000 });
    await expect(client.connect()).rejects.toThrow();
    expect(existsSync(join(dir, 'postgres/postmaster.pid'))).toBe(false);
    expect(await probeRedis(infra.redisUrl)).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  }, 120000);

  it('starts a redis-server from PATH on a free port and stops it', async () => {
    const dir = scratch('redis');
    const infra = await ensureInfrastructure({ root, forceRedisServer: true, logDir: dir });
    try {
      expect(infra.started).toEqual([`redis-server on port ${new URL(infra.redisUrl).port}`]);
      expect(infra.redisUrl).not.toBe(process.env.REDIS_URL);
      expect(await probeRedis(infra.redisUrl)).toBeUndefined();
    } finally {
      await infra.stop();
    }
    expect(await probeRedis(infra.redisUrl)).toMatch(/ECONNREFUSED/);
    rmSync(dir, { recursive: true, force: true });
  }, 60000);

  it('stops with one line naming what is missing when redis-server is not on PATH', async () => {
    const attempt = ensureInfrastructure({ root, forceRedisServer: true, env: { ...process.env, PATH: '/nonexistent' } });
    await expect(attempt).rejects.toBeInstanceOf(InfrastructureError);
    await expect(attempt).rejects.toThrow(/^redis-server not found on PATH[^\n]*apt-get install redis-server[^\n]*REDIS_URL$/);
  });

  it('refuses a DATABASE_URL that does not answer instead of silently using another server', async () => {
    const attempt = ensureInfrastructure({ root, env: { ...process.env, DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/pfs' } });
    await expect(attempt).rejects.toThrow(/^DATABASE_URL is set but postgresql at 127\.0\.0\.1:1 does not answer \([^\n]*\): start it or unset DATABASE_URL$/);
  });
});
