import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { createProducerConnection } from '@pfs/messaging';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';

/** A Lua script run atomically by Redis, addressed by its digest after the first call. */
export class RedisScript {
  readonly sha: string;

  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }
}

/**
 * The gateway's own Redis connection for the state every replica shares (rate-limit windows,
 * idempotency records). Commands fail after a couple of reconnect attempts instead of hanging,
 * so a Redis outage surfaces as an error response rather than a stuck request.
 */
@Injectable()
export class GatewayRedis implements OnApplicationShutdown {
  readonly client: Redis;
  /** Every key of this deployment starts with it (QUEUE_PREFIX), so parallel test runs stay apart. */
  readonly prefix: string;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.client = createProducerConnection(config.redisUrl, 'gateway-platform');
    this.prefix = config.queuePrefix;
  }

  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  async run(script: RedisScript, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await this.client.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (error) {
      // A Redis restarted or flushed since the last call no longer knows the digest.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.client.eval(script.lua, keys.length, ...keys, ...args);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
