import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { testDatabaseUrl } from '@pfs/testing';
import { ensureDatabase } from '../src';

export const MIGRATIONS_DIR = join(__dirname, '../../../prisma/migrations');
export const SCHEMA_FILE = join(__dirname, '../../../prisma/schema.prisma');

/** A database of its own (`pfs_mig_<random>`) on the test server, for tests that migrate from zero. */
export interface ThrowawayDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  const name = `pfs_mig_${randomBytes(6).toString('hex')}`;
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  return {
    url: url.toString(),
    name,
    drop: async () => {
      url.pathname = '/postgres';
      const client = new Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
