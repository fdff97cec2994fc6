import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '../gateway.config';
import { callBatcher } from '@pfs/platform';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { GatewayRedis, RedisScript } from '../redis/gateway-redis';

/**
 * Fixed window per API key, anchored at the key's first request after the previous window
 * ended, counted in one Lua script so every replica shares it and no two requests race.
 * Redis's clock decides when a window ends, so replicas with skewed clocks still agree.
 * Counts ARGV[2] requests at once (those of one key that arrived together) and returns the count
 * including them and the milliseconds until the window ends.
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
local count = redis.call('HINCRBY', KEYS[1], 'count', tonumber(ARGV[2]))
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
  // Every authenticated request counts: the requests that arrive together share one script call
  // per API key (a busy partner's concurrent requests cost one round trip to Redis, not one each).
  private readonly consumptions = callBatcher<string, { count: number; msLeft: number }>((keyIds) => this.countTogether(keyIds), { maxInFlight: 2, maxBatchSize: 256 });

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
    const { count, msLeft } = await this.consumptions(keyId);
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
      windowSeconds: this.windowSeconds,
    };
  }

  /** One script call per key for its requests in `keyIds`; each request gets its own place in the count, in order. */
  private async countTogether(keyIds: readonly string[]): Promise<Array<{ count: number; msLeft: number }>> {
    const requests = new Map<string, number>();
    for (const keyId of keyIds) requests.set(keyId, (requests.get(keyId) ?? 0) + 1);
    const counted = new Map(
      await Promise.all(
        [...requests].map(async ([keyId, n]) => {
          const [total, msLeft] = (await this.redis.run(CONSUME, [this.redis.key('rate-limit', keyId)], [this.windowSeconds * 1000, n])) as [number, number];
          return [keyId, { first: total - n + 1, msLeft }] as const;
        }),
      ),
    );
    const placed = new Map<string, number>();
    return keyIds.map((keyId) => {
      const { first, msLeft } = counted.get(keyId) as { first: number; msLeft: number };
      const before = placed.get(keyId) ?? 0;
      placed.set(keyId, before + 1);
      return { count: first + before, msLeft };
    });
  }
}
