import { positiveInt, readPlatformConfig, type PlatformConfig } from '@pfs/platform';

/** The platform settings plus what only the HTTP entry point needs. */
export interface GatewayConfig extends PlatformConfig {
  port: number;
  host: string;
  /** Largest request body accepted, in bytes (`BODY_LIMIT_BYTES`, default 1 MiB). */
  bodyLimitBytes: number;
}

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    ...readPlatformConfig(env),
    port: env.PORT === '0' ? 0 : positiveInt(env.PORT, 3000, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    bodyLimitBytes: positiveInt(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
  };
}
