import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { GatewayRedis, RedisScript } from '../redis/gateway-redis';

/**
 * Fixed window per API key, anchored at the key's first request after the previous window
 * ended, counted in one Lua script so every replica shares it and no two requests race.
 * Redis's clock decides when a window ends, so replicas with skewed clocks still agree.
 * Returns the count including this request and the milliseconds until the window ends.
 */
const CONSUME = new RedisScript('pfsRateLimitConsume', 1, `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local windowMs = tonumber(ARGV[1])
local started = tonumber(redis.call('HGET', KEYS[1], 'start'))
if (not started) or nowMs >= started + windowMs then
  started = nowMs
  redis.call('HSET', KEYS[1], 'start', string.format('%.0f', started), 'count', 0)
  redis.call('PEXPIRE', KEYS[1], windowMs)
end
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
return { count, started + windowMs - nowMs }
`);

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends and the budget is back in full (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

@Injectable()
export class RateLimiter {
  constructor(
    private readonly redis: GatewayRedis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  get limit(): number {
    return this.config.rateLimitPerWindow;
  }

  get windowSeconds(): number {
    return this.config.rateLimitWindowSeconds;
  }

  /** Counts one request of the API key `keyId` and says whether it is within the budget. */
  async consume(keyId: string): Promise<RateLimitDecision> {
    const [count, msLeft] = (await this.redis.run(CONSUME, [this.redis.key('rate-limit', keyId)], [this.windowSeconds * 1000])) as [
      number,
      number,
    ];
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
      windowSeconds: this.windowSeconds,
    };
  }
}
