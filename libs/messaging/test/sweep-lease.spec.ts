import { isolateQueues, testRedisUrl } from '@pfs/testing';
import { Redis } from 'ioredis';
import { SweepLease } from '../src';

const prefix = isolateQueues('sweep-lease');

describe('SweepLease', () => {
  it('lets one replica of a service sweep per interval, and the next interval whichever asks first', async () => {
    const options = { redisUrl: testRedisUrl(), prefix, service: 'ledger-service' };
    const [first, second, otherService] = [new SweepLease(options), new SweepLease(options), new SweepLease({ ...options, service: 'quote-service' })];
    try {
      expect(await first.take('payout-settlement', 200)).toBe(true);
      expect(await second.take('payout-settlement', 200)).toBe(false);
      expect(await first.take('payout-settlement', 200)).toBe(false);
      // Another sweeper, or the same sweeper of another service, has a lease of its own.
      expect(await second.take('quote-reconcile', 200)).toBe(true);
      expect(await otherService.take('payout-settlement', 200)).toBe(true);
      // Nine tenths of the interval later the lease has ended: the next tick, by either, takes it.
      const taken = async () => {
        for (;;) {
          if (await second.take('payout-settlement', 200)) return true;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      expect(await taken()).toBe(true);
    } finally {
      for (const lease of [first, second, otherService]) lease.onApplicationShutdown();
    }
  });

  it('lets the pass run when Redis does not answer: sweepers are correct without the lease', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    unreachable.on('error', () => undefined);
    const lease = new SweepLease({ redisUrl: 'redis://127.0.0.1:1', prefix, service: 'ledger-service' }, unreachable);
    try {
      expect(await lease.take('payout-settlement', 200)).toBe(true);
    } finally {
      lease.onApplicationShutdown();
    }
  });
});
