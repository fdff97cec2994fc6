import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { createProducerConnection, createRedisConnection, type RedisClient } from '../src';
import { recordWrites } from './support/socket-writes';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** `count` increments of one new counter given in one turn: each reply, in order, and the writes they took. */
async function incrementsInOneTurn(client: Redis, count: number): Promise<{ replies: number[]; writes: number }> {
  const writes = recordWrites(client);
  const counter = `coalesced-writes-test:${randomBytes(6).toString('hex')}`;
  const replies = await Promise.all(Array.from({ length: count }, () => client.incr(counter)));
  const seen = writes.length;
  await client.del(counter);
  return { replies, writes: seen };
}

const oneToN = (count: number): number[] => Array.from({ length: count }, (_, index) => index + 1);

describe('a Redis connection of the apps writes the commands of one event-loop turn at once', () => {
  const clients: RedisClient[] = [];
  const connection = async (make: typeof createProducerConnection): Promise<Redis> => {
    const client = make(redisUrl, `coalesced-writes-test-${randomBytes(3).toString('hex')}`) as Redis;
    clients.push(client);
    await client.ping();
    return client;
  };

  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  it.each([
    ['a producer connection', createProducerConnection],
    ['a worker connection', createRedisConnection],
  ])('%s: fifty commands of one turn are one write, each answered its own reply in order', async (_name, make) => {
    const client = await connection(make);

    expect(await incrementsInOneTurn(client, 50)).toEqual({ replies: oneToN(50), writes: 1 });
  });

  it('holds no command back: each turn writes what it was given, and every command is answered', async () => {
    const client = await connection(createProducerConnection);
    const writes = recordWrites(client);
    const list = `coalesced-writes-test:${randomBytes(6).toString('hex')}`;

    for (let round = 0; round < 3; round++) {
      await turn();
      // Not awaited together with the next round: the next turn's commands go on their own.
      await Promise.all([client.rpush(list, `${round}a`), client.rpush(list, `${round}b`)]);
    }

    expect(await client.lrange(list, 0, -1)).toEqual(['0a', '0b', '1a', '1b', '2a', '2b']);
    // Three turns of two commands each, then the read: four writes, not seven.
    expect(writes).toHaveLength(4);
    await client.del(list);
  });

  it('keeps doing so on the socket of a reconnection', async () => {
    const client = await connection(createProducerConnection);
    const dropped = client.stream;
    const ready = once(client, 'ready');
    dropped.destroy();
    await ready;
    expect(client.stream).not.toBe(dropped);

    expect(await incrementsInOneTurn(client, 10)).toEqual({ replies: oneToN(10), writes: 1 });
  });
});
