import { randomBytes } from 'node:crypto';
import { newRequestId, type CommandService, type PingResult } from '@pfs/contracts';
import { startRedisCluster, type RedisCluster } from '@pfs/devstack';
import { createLogger, readPlatformConfig, type PlatformConfig } from '@pfs/platform';
import { Cluster } from 'ioredis';
import { CommandBus, CommandConsumer, createProducerConnection, SweepLease, type RedisClient } from '../src';
import { PassThroughCommandLog, pingOnlyHandlers } from './support/ping-only-handlers';

// A local Redis Cluster of three primaries (the devstack's), and the settings an app reads when
// REDIS_CLUSTER_NODES names it: commands travel with replies, keys spread, a restarted primary
// keeps its queue.
describe('on a Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let cluster: RedisCluster;
  let config: PlatformConfig;
  const logger = createLogger('messaging-cluster-test', 'silent');
  const closers: Array<() => Promise<unknown>> = [];
  const connection = (name: string): RedisClient => {
    const client = createProducerConnection(config.redisUrl, name);
    closers.push(() => client.quit());
    return client;
  };

  beforeAll(async () => {
    cluster = await startRedisCluster();
    config = readPlatformConfig({ REDIS_CLUSTER_NODES: cluster.nodesSetting, QUEUE_PREFIX: `msg-cluster-${randomBytes(4).toString('hex')}` });
  }, 60000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await cluster?.stop();
  }, 60000);

  it('reads the setting into a cluster target and a hash-tagged queue prefix', () => {
    expect(config.redisUrl).toBe(`redis-cluster://${cluster.nodesSetting}`);
    expect(config.queuePrefix).toMatch(/^\{msg-cluster-[0-9a-f]{8}\}$/);
    const client = connection('cluster-kind');
    expect(client).toBeInstanceOf(Cluster);
  });

  it('spreads plain keys over every primary and keeps each queue in the slot of its tag', async () => {
    const owners = new Set<number>();
    for (let index = 0; index < 30; index += 1) owners.add(await cluster.primaryOf(`pfs:idempotency:org_${index}`));
    expect(owners.size).toBe(3);
    const queuePrimary = await cluster.primaryOf(config.queuePrefix);
    for (const key of [`${config.queuePrefix}:ledger.commands:wait`, `${config.queuePrefix}:webhook-deliveries:events`]) {
      expect(await cluster.primaryOf(key)).toBe(queuePrimary);
    }
  });

  it('sends a command and gets its reply through BullMQ queues and pub/sub on the cluster, before and after the queues primary restarts', async () => {
    const service = 'quote' satisfies CommandService;
    const consumer = new CommandConsumer<typeof service>(
      service,
      pingOnlyHandlers(service, async (context): Promise<PingResult> => ({ service, time: context.requestId })),
      { redisUrl: config.redisUrl, prefix: config.queuePrefix, logger, commandLog: new PassThroughCommandLog() },
    );
    closers.push(() => consumer.close());
    await consumer.start();
    const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: 10000, workerCheckIntervalMs: 100, name: 'cluster-bus' });
    closers.push(() => bus.close());

    const ping = async () => {
      const requestId = newRequestId();
      const reply = await bus.send(service, 'system.ping', {}, { requestId });
      expect(reply).toEqual({ service, time: requestId });
    };
    await ping();

    // Every queue key sits on this primary; its append-only file brings them back.
    await cluster.restartPrimary(await cluster.primaryOf(config.queuePrefix));
    let answered = false;
    for (let attempt = 0; attempt < 40 && !answered; attempt += 1) {
      try {
        await ping();
        answered = true;
      } catch {
        // The connections are still finding the restarted primary.
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(answered).toBe(true);
  }, 90000);

  it('runs a sweep once per interval across processes on the cluster', async () => {
    const leases = [0, 1, 2].map((index) => new SweepLease({ redisUrl: config.redisUrl, prefix: config.queuePrefix, service: 'ledger' }, connection(`lease-${index}`)));
    const won = await Promise.all(leases.map((lease) => lease.take('payout-settlement', 60000)));
    expect(won.filter(Boolean)).toHaveLength(1);
  });
});
