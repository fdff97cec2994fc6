import { randomBytes } from 'node:crypto';
import { newRequestId, type CommandService, type PingResult } from '@pfs/contracts';
import { startRedisCluster, type RedisCluster } from '@pfs/devstack';
import { createLogger, readPlatformConfig, type PlatformConfig } from '@pfs/platform';
import { Cluster } from 'ioredis';
import { CommandBus, CommandConsumer, createProducerConnection, SweepLease, type RedisClient } from '../src';
import { PassThroughCommandLog, pingOnlyHandlers } from './support/ping-only-handlers';

// A local Redis Cluster of three primaries (the devstack's), and the settings an app reads when
// REDIS_CLUSTER_NODES names it: commands travel with replies, keys spread, a restarted primary
// keeps its keys. The apps against a primary restarted mid-load: the replicas end-to-end test.
describe('on a Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let cluster: RedisCluster;
  let config: PlatformConfig;
  const logger = createLogger('messaging-cluster-test', 'silent');
  const closers: Array<() => Promise<unknown>> = [];
  const connection = (name: string): RedisClient => {
    const client = createProducerConnection(config.redisUrl, name);
    closers.push(async () => client.disconnect());
    return client;
  };

  beforeAll(async () => {
    cluster = await startRedisCluster();
    config = readPlatformConfig({ REDIS_CLUSTER_NODES: cluster.nodesSetting, QUEUE_PREFIX: `msg-cluster-${randomBytes(4).toString('hex')}` });
  }, 60000);

  afterAll(async () => {
    // A close that waits on a connection still finding the restarted primary is cut short: the
    // cluster is stopped next anyway.
    const bounded = (close: () => Promise<unknown>) => Promise.race([close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    for (const close of closers.reverse()) await bounded(close);
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

  it('sends a command and gets its reply through BullMQ queues and pub/sub on the cluster', async () => {
    const service = 'quote' satisfies CommandService;
    const consumer = new CommandConsumer<typeof service>(
      service,
      pingOnlyHandlers(service, async (context): Promise<PingResult> => ({ service, time: context.requestId })),
      { redisUrl: config.redisUrl, prefix: config.queuePrefix, logger, commandLog: new PassThroughCommandLog() },
    );
    await consumer.start();
    const bus = new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: 10000, workerCheckIntervalMs: 100, name: 'cluster-bus' });
    try {
      for (let round = 0; round < 3; round += 1) {
        const requestId = newRequestId();
        expect(await bus.send(service, 'system.ping', {}, { requestId })).toEqual({ service, time: requestId });
      }
    } finally {
      // Closed here, before the next test restarts a primary: both close cleanly on a whole cluster.
      await bus.close();
      await consumer.close();
    }
    // The queue's keys are on the primary of its tag, and nowhere else.
    const queueKeys = await cluster.command(await cluster.primaryOf(config.queuePrefix), ['EVAL', "return #redis.call('KEYS', ARGV[1])", '0', `${config.queuePrefix}:*`]);
    expect(Number(queueKeys)).toBeGreaterThan(0);
  }, 60000);

  it('keeps a restarted primary\'s keys (append-only), as the replicas end-to-end test relies on', async () => {
    const client = connection('restart-probe');
    const key = `${config.queuePrefix}:restart-probe`;
    await client.set(key, 'kept');
    await cluster.restartPrimary(await cluster.primaryOf(key));
    let value: string | null = null;
    for (let attempt = 0; attempt < 40 && value === null; attempt += 1) {
      value = await client.get(key).catch(() => null);
      if (value === null) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(value).toBe('kept');
  }, 60000);

  it('runs a sweep once per interval across processes on the cluster', async () => {
    const leases = [0, 1, 2].map((index) => new SweepLease({ redisUrl: config.redisUrl, prefix: config.queuePrefix, service: 'ledger' }, connection(`lease-${index}`)));
    const won = await Promise.all(leases.map((lease) => lease.take('payout-settlement', 60000)));
    expect(won.filter(Boolean)).toHaveLength(1);
  });
});
