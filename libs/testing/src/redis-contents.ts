import type { RedisClient } from '@pfs/messaging';
import { testRedisUrl } from './test-env';

/** One key and everything it holds, flattened to text. */
export interface RedisEntry {
  key: string;
  type: string;
  text: string;
}

/**
 * Every key under `prefix` (SCAN, so a large keyspace is walked in steps) with its whole value
 * read as its type demands: strings, hashes, lists, sets, sorted sets and streams. For tests that
 * assert what Redis holds at rest; DUMP would not do, as it may compress a value.
 */
export async function redisContentsUnder(prefix: string, redisUrl = testRedisUrl()): Promise<RedisEntry[]> {
  // Loaded here, not with the library: see in-process-service.ts.
  const { createRedisConnection } = await import('@pfs/messaging');
  const redis = createRedisConnection(redisUrl, 'test-redis-contents');
  try {
    const keys = new Set<string>();
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}:*`;
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      for (const key of batch) keys.add(key);
      cursor = next;
    } while (cursor !== '0');
    const entries: RedisEntry[] = [];
    for (const key of keys) {
      const type = await redis.type(key);
      const parts = await readValue(redis, key, type);
      // Gone since the scan (expired, or a job removed meanwhile): nothing to hold.
      if (parts !== undefined) entries.push({ key, type, text: [key, ...parts].join('\n') });
    }
    return entries;
  } finally {
    redis.disconnect();
  }
}

/**
 * For each named needle, the keys under `prefix` whose name or value contains it (one scan):
 * `{ apiKey: [] }` when nothing holds the API key.
 */
export async function redisKeysHolding<N extends string>(prefix: string, needles: Record<N, string>): Promise<Record<N, string[]>> {
  const entries = await redisContentsUnder(prefix);
  const found = {} as Record<N, string[]>;
  for (const name of Object.keys(needles) as N[]) {
    found[name] = entries.filter((entry) => entry.text.includes(needles[name])).map((entry) => entry.key);
  }
  return found;
}

type Connection = RedisClient;

async function readValue(redis: Connection, key: string, type: string): Promise<string[] | undefined> {
  switch (type) {
    case 'none':
      return undefined;
    case 'string':
      return [(await redis.get(key)) ?? ''];
    case 'hash':
      return Object.entries(await redis.hgetall(key)).flat();
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, '-1', 'WITHSCORES');
    case 'stream':
      return (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
    default:
      throw new Error(`${key}: cannot read a Redis ${type}`);
  }
}
