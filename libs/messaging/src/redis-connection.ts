import { Redis } from 'ioredis';

/** BullMQ needs `maxRetriesPerRequest: null` on the connections its workers block on. */
export function createRedisConnection(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}
