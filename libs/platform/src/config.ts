import { createHmac } from 'node:crypto';
import type { ServiceEnvironment } from '@pfs/contracts';
import { clusterTarget, hashTagged } from './redis-target';

/** Settings every app reads; each is documented in the README's configuration table. */
export interface PlatformConfig {
  serviceEnv: ServiceEnvironment;
  databaseUrl: string;
  /** REDIS_URL, or the `redis-cluster://` target of REDIS_CLUSTER_NODES (see redis-target.ts). */
  redisUrl: string;
  /**
   * Prefix of every BullMQ key, so parallel test runs never see each other's jobs. On a Redis
   * Cluster it is hash-tagged (`{pfs}`), so that each queue's keys share a slot.
   */
  queuePrefix: string;
  apiKeyPepper: string;
  cursorSecret: string;
  commandTimeoutMs: number;
  logLevel: string;
  /** How long a SIGTERM drain may take before the process exits anyway (below the pod's grace period). */
  shutdownTimeoutMs: number;
  /** Attempts at one event before it goes to its subscriber's dead-letter queue. */
  eventMaxAttempts: number;
  /** PostgreSQL connections this process may open (DATABASE_POOL_SIZE); null: the service's own default. */
  databasePoolSize: number | null;
  /** Jobs each command lane of this process runs at once (COMMAND_CONCURRENCY); null: twice its pool. */
  commandConcurrency: number | null;
}

/**
 * With @pfs/messaging's event backoff (event-retry.ts: doubling from 500 ms to a 5-minute
 * ceiling) 300 attempts span about 24 h, so an outage of hours loses no event.
 */
export const DEFAULT_EVENT_MAX_ATTEMPTS = 300;

export function readPlatformConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const serviceEnv = env.SERVICE_ENV === 'production' ? 'production' : 'sandbox';
  if (env.SERVICE_ENV && !['sandbox', 'production'].includes(env.SERVICE_ENV)) {
    throw new Error(`SERVICE_ENV must be sandbox or production, not ${env.SERVICE_ENV}`);
  }
  const apiKeyPepper = env.API_KEY_PEPPER ?? (serviceEnv === 'sandbox' ? 'sandbox-pepper-not-secret' : '');
  if (!apiKeyPepper) throw new Error('API_KEY_PEPPER is required in production');
  // A Redis Cluster when set; REDIS_URL (one server) otherwise.
  const cluster = env.REDIS_CLUSTER_NODES?.trim() || undefined;
  return {
    serviceEnv,
    databaseUrl: env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs',
    redisUrl: cluster ? clusterTarget(cluster) : (env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    queuePrefix: cluster ? hashTagged(env.QUEUE_PREFIX ?? 'pfs') : (env.QUEUE_PREFIX ?? 'pfs'),
    apiKeyPepper,
    // Its own key: derived from the pepper for its purpose, never the pepper itself.
    cursorSecret: env.CURSOR_SECRET ?? createHmac('sha256', apiKeyPepper).update('pfs list cursors v1').digest('hex'),
    commandTimeoutMs: positiveInt(env.COMMAND_TIMEOUT_MS, 5000, 'COMMAND_TIMEOUT_MS'),
    logLevel: env.LOG_LEVEL ?? 'info',
    shutdownTimeoutMs: positiveInt(env.SHUTDOWN_TIMEOUT_MS, 25000, 'SHUTDOWN_TIMEOUT_MS'),
    eventMaxAttempts: positiveInt(env.EVENT_MAX_ATTEMPTS, DEFAULT_EVENT_MAX_ATTEMPTS, 'EVENT_MAX_ATTEMPTS'),
    databasePoolSize: env.DATABASE_POOL_SIZE ? positiveInt(env.DATABASE_POOL_SIZE, 0, 'DATABASE_POOL_SIZE') : null,
    commandConcurrency: env.COMMAND_CONCURRENCY ? positiveInt(env.COMMAND_CONCURRENCY, 0, 'COMMAND_CONCURRENCY') : null,
  };
}

export function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`${name} must be a positive integer`);
  return parsed;
}
