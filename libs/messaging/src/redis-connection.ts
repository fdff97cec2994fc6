import { Redis } from 'ioredis';

/** BullMQ needs `maxRetriesPerRequest: null` on the connections its workers block on. */
export function createRedisConnection(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}

/**
 * For producers (adding jobs, publishing replies): a command fails after a couple of reconnect
 * attempts instead of waiting for Redis forever, so a Redis outage surfaces as an error the
 * caller can answer (503, or a relay pass that rolls back and retries later).
 */
export function createProducerConnection(url: string, name: string): Redis {
  // Auto-pipelining sends the commands issued in one tick in one write: under load the
  // syscalls, not Redis, are what a command costs.
  return new Redis(url, { maxRetriesPerRequest: 2, connectionName: name, lazyConnect: false, enableAutoPipelining: true });
}
