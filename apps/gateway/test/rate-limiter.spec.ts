import { randomBytes } from 'node:crypto';
import { isolateQueues } from '@pfs/testing';
import { readGatewayConfig } from '../src/gateway.config';
import { RateLimiter } from '../src/rate-limit/rate-limiter';
import { GatewayRedis } from '../src/redis/gateway-redis';

isolateQueues('gw-rate-limiter');

/* The per-key budget's counting on the real Redis: requests that arrive together share a script call and still each count once, in order. */
describe('RateLimiter (real Redis)', () => {
  const config = { ...readGatewayConfig(), rateLimitPerWindow: 5, rateLimitWindowSeconds: 600 };
  const redis = new GatewayRedis(config);
  const limiter = new RateLimiter(redis, config);
  const keyIds = [`key_${randomBytes(6).toString('hex')}`, `key_${randomBytes(6).toString('hex')}`];

  afterAll(async () => {
    await redis.client.del(...keyIds.map((keyId) => redis.key('rate-limit', keyId)));
    await redis.onApplicationShutdown();
  });

  it('counts a burst of two keys in one script call per key: each request has its own place, the budget exact', async () => {
    const run = jest.spyOn(redis, 'run');
    try {
      const [busy, quiet] = keyIds as [string, string];
      const decisions = await Promise.all([...Array.from({ length: 8 }, () => limiter.consume(busy)), limiter.consume(quiet)]);
      expect(run).toHaveBeenCalledTimes(2);
      const burst = decisions.slice(0, 8);
      expect(burst.map((decision) => decision.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
      expect(burst.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false, false, false]);
      expect(decisions[8]).toMatchObject({ allowed: true, remaining: 4 });
      // The next request of the busy key counts after the burst.
      expect(await limiter.consume(busy)).toMatchObject({ allowed: false, remaining: 0 });
      expect(await limiter.consume(quiet)).toMatchObject({ allowed: true, remaining: 3 });
    } finally {
      run.mockRestore();
    }
  });
});
