import { COMMAND_LOG_RETENTION_MS } from '@pfs/messaging';
import { positiveInt, readPlatformConfig, type PlatformConfig } from '@pfs/platform';

/** The platform settings plus what only the HTTP entry point needs. */
export interface GatewayConfig extends PlatformConfig {
  port: number;
  host: string;
  /** Largest request body accepted, in bytes (`BODY_LIMIT_BYTES`, default 1 MiB). */
  bodyLimitBytes: number;
  /** Requests each API key may make per window (`RATE_LIMIT_PER_MINUTE`, default 1000). */
  rateLimitPerWindow: number;
  /** Length of the rate-limit window in seconds (`RATE_LIMIT_WINDOW_SECONDS`, default 60; shorter in tests). */
  rateLimitWindowSeconds: number;
  /** How long a stored idempotent response is replayed (`IDEMPOTENCY_TTL_SECONDS`, default 24 h). */
  idempotencyTtlSeconds: number;
  /**
   * Lease of an in-flight idempotency claim (`IDEMPOTENCY_LEASE_MS`, default 60 s). Renewed while
   * the request runs, so only a replica that died mid-request lets it lapse.
   */
  idempotencyLeaseMs: number;
}

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    ...readPlatformConfig(env),
    port: env.PORT === '0' ? 0 : positiveInt(env.PORT, 3000, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    bodyLimitBytes: positiveInt(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    rateLimitPerWindow: positiveInt(env.RATE_LIMIT_PER_MINUTE, 1000, 'RATE_LIMIT_PER_MINUTE'),
    rateLimitWindowSeconds: positiveInt(env.RATE_LIMIT_WINDOW_SECONDS, 60, 'RATE_LIMIT_WINDOW_SECONDS'),
    idempotencyTtlSeconds: idempotencyTtl(env.IDEMPOTENCY_TTL_SECONDS),
    idempotencyLeaseMs: positiveInt(env.IDEMPOTENCY_LEASE_MS, 60_000, 'IDEMPOTENCY_LEASE_MS'),
  };
}

/**
 * A retry within the idempotency window must find its command in the services' command logs,
 * so the window may not outlast what they keep.
 */
function idempotencyTtl(value: string | undefined): number {
  const seconds = positiveInt(value, 24 * 60 * 60, 'IDEMPOTENCY_TTL_SECONDS');
  if (seconds * 1000 > COMMAND_LOG_RETENTION_MS) {
    throw new Error(`IDEMPOTENCY_TTL_SECONDS may be at most ${COMMAND_LOG_RETENTION_MS / 1000} (how long the services keep command results)`);
  }
  return seconds;
}
