import { randomUUID } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
import { createProducerConnection, type RedisClient } from './redis-connection';
import { untagged } from '@pfs/platform';

/**
 * Once per interval across replicas: a sweeper's timer asks before each pass, and the first replica
 * to ask in an interval runs it. The lease lasts nine tenths of the interval, so the next interval's
 * first tick, by whichever replica, finds it ended; the passes across replicas then run about once
 * per interval instead of once per replica. Sweepers stay correct without it (every move re-reads
 * its row under a lock), so when Redis does not answer the pass runs anyway.
 */
export class SweepLease implements OnApplicationShutdown {
  private connection?: RedisClient;
  private readonly holder = randomUUID();

  constructor(
    private readonly options: { redisUrl: string; prefix: string; service: string },
    connection?: RedisClient,
  ) {
    this.connection = connection;
  }

  async take(sweeper: string, intervalMs: number): Promise<boolean> {
    this.connection ??= createProducerConnection(this.options.redisUrl, `${this.options.service}-sweep-lease`);
    const key = `${untagged(this.options.prefix)}:sweep-lease:{${this.options.service}:${sweeper}}`;
    try {
      return (await this.connection.set(key, this.holder, 'PX', Math.max(1, Math.floor(intervalMs * 0.9)), 'NX')) === 'OK';
    } catch {
      return true;
    }
  }

  onApplicationShutdown(): void {
    this.connection?.disconnect();
    this.connection = undefined;
  }
}
