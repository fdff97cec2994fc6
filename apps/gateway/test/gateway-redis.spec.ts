import { randomBytes } from 'node:crypto';
import { isolateQueues } from '@pfs/testing';
import { readGatewayConfig } from '../src/gateway.config';
import { GatewayRedis, RedisScript } from '../src/redis/gateway-redis';

isolateQueues('gw-redis');

const INCREMENT = new RedisScript('pfsTestIncrementBy', 1, `return redis.call('INCRBY', KEYS[1], ARGV[1])`);
const DECREMENT = new RedisScript('pfsTestDecrementBy', 1, `return redis.call('DECRBY', KEYS[1], ARGV[1])`);

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

  it('runs scripts first used in the same tick as other commands (one auto-pipeline): each answered, the process unharmed', async () => {
    // A fresh connection: no script of it has run yet. An auto-pipeline copies the scripts
    // defined when it is created; each must be there already.
    const fresh = new GatewayRedis(readGatewayConfig());
    try {
      const [counter, other] = [fresh.key('test', randomBytes(6).toString('hex')), fresh.key('test', randomBytes(6).toString('hex'))];
      const answers = await Promise.all([fresh.client.get(other), fresh.run(INCREMENT, [counter], [10]), fresh.run(DECREMENT, [counter], [4]), fresh.client.incr(other)]);
      expect(answers).toEqual([null, 10, 6, 1]);
      await fresh.client.del(counter, other);
    } finally {
      await fresh.onApplicationShutdown();
    }
  });

  it('refuses a call with the wrong number of keys before anything reaches Redis', () => {
    expect(() => redis.run(INCREMENT, [key, key], [1])).toThrow('pfsTestIncrementBy takes 1 key(s)');
  });
});
