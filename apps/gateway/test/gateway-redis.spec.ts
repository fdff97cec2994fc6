import { randomBytes } from 'node:crypto';
import { isolateQueues } from '@pfs/testing';
import { readGatewayConfig } from '../src/gateway.config';
import { GatewayRedis, RedisScript } from '../src/redis/gateway-redis';

isolateQueues('gw-redis');

const INCREMENT = new RedisScript('pfsTestIncrementBy', 1, `return redis.call('INCRBY', KEYS[1], ARGV[1])`);

describe('GatewayRedis scripts (ioredis defineCommand, real Redis)', () => {
  const redis = new GatewayRedis(readGatewayConfig());
  const key = redis.key('test', randomBytes(6).toString('hex'));

  afterAll(async () => {
    await redis.client.del(key);
    await redis.onApplicationShutdown();
  });

  it('runs a script atomically and keeps working after Redis forgets its scripts (NOSCRIPT → EVAL)', async () => {
    expect(await redis.run(INCREMENT, [key], [2])).toBe(2);
    // As after a Redis restart or failover: the digest is unknown, ioredis sends the script again.
    await redis.client.script('FLUSH');
    expect(await redis.run(INCREMENT, [key], [3])).toBe(5);
    expect(await redis.run(INCREMENT, [key], [1])).toBe(6);
  });

  it('answers every caller its own reply when a script declared after the connection runs beside other commands', async () => {
    const late = new RedisScript('pfsTestLateDouble', 1, `return redis.call('INCRBY', KEYS[1], ARGV[1]) * 2`);
    const other = redis.key('test', randomBytes(6).toString('hex'));
    try {
      // One tick: an auto-pipeline is pending when the script is first run.
      const answers = await Promise.all([redis.client.set(other, 'x'), redis.run(late, [key], [1]), redis.client.get(other), redis.run(late, [key], [1])]);
      expect(answers).toEqual(['OK', 14, 'x', 16]);
    } finally {
      await redis.client.del(other);
    }
  });

  it('refuses a call with the wrong number of keys before anything reaches Redis', () => {
    expect(() => redis.run(INCREMENT, [key, key], [1])).toThrow('pfsTestIncrementBy takes 1 key(s)');
  });
});
