import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { testDatabaseUrl } from '@pfs/testing';
import { dropDatabase, ensureDatabase } from '../src';

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
    drop: () => dropDatabase(url.toString()),
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
