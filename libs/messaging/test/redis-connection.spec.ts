import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { readPlatformConfig } from '@pfs/platform';
import { isolateQueues } from '@pfs/testing';
import { createRedisConnection, createWorkerConnection } from '../src';

const prefix = isolateQueues('msg-connection');
const config = readPlatformConfig();

/** Socket writes while `work` runs on `client` (single-server Redis: a cluster has a socket per node). */
async function writesDuring(client: Redis, work: () => Promise<unknown>): Promise<number> {
  const stream = client.stream;
  const write = jest.spyOn(stream, 'write');
  try {
    await work();
    return write.mock.calls.length;
  } finally {
    write.mockRestore();
  }
}

describe('a worker connection', () => {
  it('sends the commands issued in one turn of the event loop in one write, where a plain connection writes each', async () => {
    const worker = createWorkerConnection(config.redisUrl, 'connection-test-worker') as Redis;
    const plain = createRedisConnection(config.redisUrl, 'connection-test-plain') as Redis;
    try {
      await Promise.all([worker.ping(), plain.ping()]);
      const twenty = (client: Redis) => Promise.all(Array.from({ length: 20 }, (_, index) => client.get(`${prefix}:absent:${index}`)));
      expect(await writesDuring(worker, () => twenty(worker))).toBe(1);
      expect(await writesDuring(plain, () => twenty(plain))).toBe(20);
    } finally {
      worker.disconnect();
      plain.disconnect();
    }
  });

  it('carries a BullMQ worker: jobs added while it waits on its blocking connection are taken at once', async () => {
    const connection = createWorkerConnection(config.redisUrl, 'connection-test-bullmq');
    const producer = createRedisConnection(config.redisUrl, 'connection-test-producer');
    const queue = new Queue('connection-test', { connection: producer, prefix });
    const done: string[] = [];
    const worker = new Worker('connection-test', async (job) => void done.push(String(job.data)), { connection, prefix, concurrency: 8 });
    try {
      await worker.waitUntilReady();
      // Let the worker block on its marker first: the jobs must wake it, not find it polling.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const finished = new Promise<void>((resolve) => worker.on('completed', () => done.length === 10 && resolve()));
      await queue.addBulk(Array.from({ length: 10 }, (_, index) => ({ name: 'job', data: index })));
      await finished;
      expect(done.map(Number).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
      producer.disconnect();
    }
  });
});
