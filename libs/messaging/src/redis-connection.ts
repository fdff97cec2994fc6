import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { clusterNodesOf, type ClusterNode } from '@pfs/platform';

/**
 * Every Redis connection of the apps: one server (a `redis://` URL) or a Redis Cluster (the
 * target REDIS_CLUSTER_NODES becomes, see readPlatformConfig). Both speak the same commands;
 * in a cluster each command goes to the primary that owns its key's slot, which is why every
 * multi-key script and every BullMQ queue keeps its keys under one hash tag.
 */
export type RedisClient = Redis | Cluster;

/** BullMQ needs `maxRetriesPerRequest: null` on the connections its workers block on. */
export function createRedisConnection(target: string, name: string): RedisClient {
  return connect(target, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}

/**
 * For producers (adding jobs, publishing replies): a command fails after a couple of reconnect
 * attempts instead of waiting for Redis forever, so a Redis outage surfaces as an error the
 * caller can answer (503, or a relay pass that rolls back and retries later).
 */
export function createProducerConnection(target: string, name: string): RedisClient {
  // Not auto-pipelined: a pipeline object per tick copies every script defined on the
  // connection (BullMQ's ~50 on a queue's). Measured: a BullMQ add took 165–240 µs of CPU one at
  // a time against 310–400 µs auto-pipelined, and the same CPU with 16 in flight at half again
  // the rate. What the connection is given in one turn still leaves in one write (see
  // coalescingWrites), which costs no object per command.
  return connect(target, { maxRetriesPerRequest: 2, connectionName: name, lazyConnect: false });
}

/** A connection for a one-off check (readiness): it gives up after one reconnect attempt. */
export function createProbeConnection(target: string, name: string): RedisClient {
  return connect(target, { maxRetriesPerRequest: 1, connectionName: name });
}

function connect(target: string, options: RedisOptions): RedisClient {
  const nodes = clusterNodesOf(target);
  if (!nodes) return coalescingWrites(new Redis(target, options));
  const cluster = new Cluster(
    nodes.map((node) => ({ host: node.host, port: node.port })),
    clusterOptions(nodes, options),
  );
  cluster.on('+node', (node: Redis) => coalescingWrites(node));
  return cluster;
}

/**
 * The commands a connection is given in one turn of the event loop leave in one write: the
 * socket is corked at the turn's first command and uncorked once the turn's callbacks have run
 * (setImmediate). Each write is a system call that also wakes Redis, and on a virtual machine
 * that costs more than most commands' own work; commands still go one by one and in order, with
 * no pipeline object (ioredis's auto-pipelining copies every script defined on the connection
 * into each pipeline). A command waits at most for the rest of the turn.
 */
function coalescingWrites(client: Redis): Redis {
  const patch = (): void => {
    const stream = client.stream as (typeof client.stream & { [COALESCING]?: true }) | undefined;
    if (!stream || stream[COALESCING]) return;
    stream[COALESCING] = true;
    const write = stream.write;
    let corked = false;
    const uncork = (): void => {
      corked = false;
      stream.uncork();
    };
    stream.write = function (this: typeof stream, ...args: Parameters<typeof write>) {
      if (!corked) {
        corked = true;
        stream.cork();
        setImmediate(uncork);
      }
      return write.apply(this, args);
    } as typeof write;
  };
  client.on('connect', patch);
  patch();
  return client;
}

const COALESCING = Symbol('coalescingWrites');

function clusterOptions(nodes: ClusterNode[], options: RedisOptions): ClusterOptions {
  const [first] = nodes;
  return {
    // A primary that restarts or fails over: commands wait and follow the new slot map
    // instead of failing at once.
    retryDelayOnClusterDown: 200,
    retryDelayOnFailover: 200,
    slotsRefreshTimeout: 2000,
    redisOptions: {
      maxRetriesPerRequest: options.maxRetriesPerRequest,
      connectionName: options.connectionName,
      ...(first?.username ? { username: first.username } : {}),
      ...(first?.password ? { password: first.password } : {}),
      ...(first?.tls ? { tls: {} } : {}),
    },
  };
}
