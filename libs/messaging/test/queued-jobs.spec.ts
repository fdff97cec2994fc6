import { Queue } from 'bullmq';
import { readPlatformConfig } from '@pfs/platform';
import { isolateQueues } from '@pfs/testing';
import { addJobs, chunks, createProducerConnection } from '../src';

const prefix = isolateQueues('msg-queued-jobs');
const config = readPlatformConfig();
const connection = createProducerConnection(config.redisUrl, 'queued-jobs-test');
const queue = new Queue('queued-jobs', { connection, prefix });

afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
});

describe('addJobs', () => {
  it('adds one job with one script call and several in one MULTI, each under its id and options', async () => {
    const bulk = jest.spyOn(Queue.prototype, 'addBulk');
    try {
      await addJobs(queue, [{ name: 'one', data: { n: 1 }, opts: { jobId: 'job-1', attempts: 3 } }]);
      expect(bulk).not.toHaveBeenCalled();
      await addJobs(queue, [
        { name: 'two', data: { n: 2 }, opts: { jobId: 'job-2' } },
        { name: 'three', data: { n: 3 }, opts: { jobId: 'job-3' } },
      ]);
      expect(bulk).toHaveBeenCalledTimes(1);
      await addJobs(queue, []);
      expect(bulk).toHaveBeenCalledTimes(1);
    } finally {
      bulk.mockRestore();
    }
    expect(await queue.getJob('job-1')).toMatchObject({ name: 'one', data: { n: 1 }, opts: { attempts: 3 } });
    expect(await queue.getJob('job-2')).toMatchObject({ name: 'two', data: { n: 2 } });
    expect(await queue.getJob('job-3')).toMatchObject({ name: 'three', data: { n: 3 } });
    expect(await queue.count()).toBe(3);
  });
});

describe('chunks', () => {
  it('slices in order, at most `size` each, nothing for nothing', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([1, 2], 2)).toEqual([[1, 2]]);
    expect(chunks([], 3)).toEqual([]);
  });
});
