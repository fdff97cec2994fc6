import { Queue } from 'bullmq';
import type { QueueDepth } from '@pfs/platform';
import { createProducerConnection, type RedisClient } from './redis-connection';

/**
 * Reads how many jobs each of some queues holds per state, and how long the oldest has waited,
 * for the queue gauges. Its one
 * Redis connection opens on the first read (a scrape), so an unscraped process holds none.
 */
export class QueueDepthReader {
  private connection?: RedisClient;
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly options: { redisUrl: string; prefix: string; name: string },
    private readonly queueNames: readonly string[],
  ) {}

  async read(): Promise<QueueDepth[]> {
    const depths = await Promise.all(
      this.queueNames.map(async (name): Promise<QueueDepth[]> => {
        const counts = await this.queue(name).getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
        return [
          // A prioritized job is waiting too, in BullMQ's other list.
          { queue: name, state: 'waiting', count: (counts.waiting ?? 0) + (counts.prioritized ?? 0) },
          { queue: name, state: 'active', count: counts.active ?? 0 },
          { queue: name, state: 'delayed', count: counts.delayed ?? 0 },
          { queue: name, state: 'failed', count: counts.failed ?? 0 },
        ];
      }),
    );
    return depths.flat();
  }

  /** Age of the oldest job waiting in each queue (0 when none waits), for the queue-age gauge. */
  async ages(now = Date.now()): Promise<Array<{ queue: string; ageSeconds: number }>> {
    return Promise.all(
      this.queueNames.map(async (queue) => {
        // Oldest first: the next job a worker takes.
        const [oldest] = await this.queue(queue).getJobs(['waiting', 'prioritized'], 0, 0, true);
        return { queue, ageSeconds: oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : 0 };
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.connection?.disconnect();
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      this.connection ??= createProducerConnection(this.options.redisUrl, `${this.options.name}-queue-metrics`);
      queue = new Queue(name, { connection: this.connection, prefix: this.options.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }
}
