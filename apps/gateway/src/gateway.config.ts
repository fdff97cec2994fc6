import { COMMAND_LOG_RETENTION_MS } from '@pfs/messaging';
import { idempotencyReplayBox, positiveInt, readPlatformConfig, type PlatformConfig, type SecretBoxRing } from '@pfs/platform';

/** The platform settings plus what only the HTTP entry point needs. */
export interface GatewayConfig extends PlatformConfig {
  port: number;
  host: string;
  /** `/metrics`, `/healthz` and `/readyz` for the cluster only (`ADMIN_PORT`, default 3100); never the public port. */
  adminPort: number;
  /** Longest a client may take to send a whole request, headers and body (`REQUEST_TIMEOUT_MS`, default 15 s). */
  requestTimeoutMs: number;
  /** Longest a client may take to send the request headers (`HEADERS_TIMEOUT_MS`, default 10 s, at most the request timeout). */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (`KEEP_ALIVE_TIMEOUT_MS`, default 65 s: above common load balancers' 60 s idle timeout). */
  keepAliveTimeoutMs: number;
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
  /**
   * Seals every stored idempotent response and keys its request fingerprint
   * (`IDEMPOTENCY_REPLAY_KEY`, newest first; required in production).
   */
  idempotencyReplayBox: SecretBoxRing;
}

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const requestTimeoutMs = positiveInt(env.REQUEST_TIMEOUT_MS, 15_000, 'REQUEST_TIMEOUT_MS');
  const headersTimeoutMs = positiveInt(env.HEADERS_TIMEOUT_MS, Math.min(10_000, requestTimeoutMs), 'HEADERS_TIMEOUT_MS');
  // Node refuses a header timeout longer than the whole request's.
  if (headersTimeoutMs > requestTimeoutMs) throw new Error('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  const platform = readPlatformConfig(env);
  return {
    ...platform,
    port: env.PORT === '0' ? 0 : positiveInt(env.PORT, 3000, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    adminPort: env.ADMIN_PORT === '0' ? 0 : positiveInt(env.ADMIN_PORT, 3100, 'ADMIN_PORT'),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: positiveInt(env.KEEP_ALIVE_TIMEOUT_MS, 65_000, 'KEEP_ALIVE_TIMEOUT_MS'),
    bodyLimitBytes: positiveInt(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    rateLimitPerWindow: positiveInt(env.RATE_LIMIT_PER_MINUTE, 1000, 'RATE_LIMIT_PER_MINUTE'),
    rateLimitWindowSeconds: positiveInt(env.RATE_LIMIT_WINDOW_SECONDS, 60, 'RATE_LIMIT_WINDOW_SECONDS'),
    idempotencyTtlSeconds: idempotencyTtl(env.IDEMPOTENCY_TTL_SECONDS),
    idempotencyLeaseMs: positiveInt(env.IDEMPOTENCY_LEASE_MS, 60_000, 'IDEMPOTENCY_LEASE_MS'),
    idempotencyReplayBox: idempotencyReplayBox(platform, env),
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
