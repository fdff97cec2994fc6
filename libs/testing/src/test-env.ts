import { randomBytes } from 'node:crypto';

/** The database of this jest run (globalSetup clones it from the migrated template). */
export function testDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs_test';
}

export function testRedisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/**
 * Gives this test file its own BullMQ key prefix, so test files running in parallel (and a
 * stack running beside them) never consume each other's jobs. Call before booting anything.
 */
export function isolateQueues(label = 't'): string {
  const prefix = `${label}-${randomBytes(4).toString('hex')}`;
  process.env.QUEUE_PREFIX = prefix;
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.REDIS_URL = testRedisUrl();
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
  return prefix;
}

