import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './app-processes';
import { findOnPath, InfrastructureError, stopOnExit, stopProcess } from './infrastructure';

/** A local Redis Cluster of primaries only, from the same redis-server binary as the single Redis. */
export interface RedisCluster {
  /** The value of REDIS_CLUSTER_NODES for the apps: `127.0.0.1:port,...`. */
  readonly nodesSetting: string;
  readonly ports: number[];
  /** One command on one primary, its reply as text (simple, integer and bulk replies). */
  command(index: number, args: string[]): Promise<string>;
  /** The index of the primary that owns a key's slot. */
  primaryOf(key: string): Promise<number>;
  /**
   * Stops one primary (SIGTERM: Redis writes its append-only file) and starts it again on the
   * same port with the same node id and slots; resolves once the cluster is whole again.
   */
  restartPrimary(index: number): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisClusterOptions {
  primaries?: number;
  /** Each node's data and log live under it; a temporary directory when absent. */
  dir?: string;
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

const SLOTS = 16384;
const READY_TIMEOUT_MS = 30000;

interface ClusterNode {
  port: number;
  busPort: number;
  dir: string;
  child?: ChildProcess;
  unhook?: () => void;
}

/**
 * Starts `primaries` redis-server processes in cluster mode (append-only, so a restarted primary
 * keeps its keys), gives each an equal share of the 16384 slots, introduces them with CLUSTER
 * MEET and waits until every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const env = options.env ?? process.env;
  const binary = findOnPath('redis-server', env.PATH ?? '');
  if (!binary) throw new InfrastructureError('redis-server not found on PATH: a local Redis Cluster needs it (apt-get install redis-server, brew install redis)');
  const count = options.primaries ?? 3;
  const ownDir = !options.dir;
  const root = options.dir ?? mkdtempSync(join(tmpdir(), 'pfs-redis-cluster-'));
  const nodes: ClusterNode[] = [];
  for (let index = 0; index < count; index += 1) {
    const port = await freePort();
    nodes.push({ port, busPort: await freePort(), dir: join(root, `node-${port}`) });
  }

  const launch = async (node: ClusterNode) => {
    mkdirSync(node.dir, { recursive: true });
    const out = openSync(join(node.dir, 'redis.log'), 'a');
    // The bus port is chosen too: the default (port + 10000) may be taken or out of range.
    const args = ['--port', String(node.port), '--cluster-port', String(node.busPort), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'];
    args.push('--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000', '--appendonly', 'yes', '--save', '', '--daemonize', 'no', '--loglevel', 'warning');
    node.child = spawn(binary, args, { detached: true, stdio: ['ignore', out, out], cwd: node.dir });
    closeSync(out);
    node.unhook = stopOnExit(node.child, 'SIGTERM');
    await until(async () => (await command(node.port, ['PING']).catch(() => '')) === 'PONG', node, `redis-server did not start on port ${node.port} (see ${node.dir}/redis.log)`);
  };
  // A port chosen free may be taken by another process before the node binds it (freePort only
  // knows it is free now): a node that could not start starts again on new ports, at most three times.
  const start = async (node: ClusterNode) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await launch(node);
      } catch (error) {
        await halt(node);
        if (attempt === 3 || !(error instanceof InfrastructureError)) throw error;
        node.port = await freePort();
        node.busPort = await freePort();
        node.dir = join(root, `node-${node.port}`);
      }
    }
  };
  const halt = async (node: ClusterNode) => {
    node.unhook?.();
    if (node.child) await stopProcess(node.child, 'SIGTERM', 'SIGKILL');
    node.child = undefined;
  };
  const whole = () =>
    Promise.all(
      nodes.map((node) =>
        until(
          async () => {
            const info = await command(node.port, ['CLUSTER', 'INFO']).catch(() => '');
            return info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${count}`) && info.includes(`cluster_slots_ok:${SLOTS}`);
          },
          node,
          `the Redis Cluster on ports ${nodes.map((item) => item.port).join(', ')} did not become ready`,
        ),
      ),
    );
  const ranges = nodes.map((_, index) => [Math.floor((SLOTS * index) / count), Math.floor((SLOTS * (index + 1)) / count) - 1] as const);

  try {
    await Promise.all(nodes.map(start));
    await Promise.all(nodes.map((node, index) => command(node.port, ['CLUSTER', 'ADDSLOTSRANGE', String(ranges[index]![0]), String(ranges[index]![1])])));
    const [first] = nodes;
    for (const node of nodes.slice(1)) await command(first!.port, ['CLUSTER', 'MEET', '127.0.0.1', String(node.port), String(node.busPort)]);
    await whole();
  } catch (error) {
    await Promise.all(nodes.map(halt));
    throw error;
  }
  options.log?.(`Redis Cluster of ${count} primaries on ports ${nodes.map((node) => node.port).join(', ')}`);

  return {
    nodesSetting: nodes.map((node) => `127.0.0.1:${node.port}`).join(','),
    ports: nodes.map((node) => node.port),
    command(index: number, args: string[]) {
      const node = nodes[index];
      if (!node) return Promise.reject(new Error(`no primary ${index}`));
      return command(node.port, args);
    },
    async primaryOf(key: string) {
      const slot = Number(await command(nodes[0]!.port, ['CLUSTER', 'KEYSLOT', key]));
      return ranges.findIndex(([from, to]) => slot >= from && slot <= to);
    },
    async restartPrimary(index: number) {
      const node = nodes[index];
      if (!node) throw new Error(`no primary ${index}`);
      await halt(node);
      await launch(node);
      await whole();
    },
    async stop() {
      await Promise.all(nodes.map(halt));
      if (ownDir) rmSync(root, { recursive: true, force: true });
    },
  };
}

async function until(ready: () => Promise<boolean>, node: ClusterNode, failure: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (node.child && (node.child.exitCode !== null || node.child.signalCode !== null)) break;
    if (await ready()) return;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
  throw new InfrastructureError(failure);
}

/** One command on a connection of its own to one node; the reply as text (an error reply rejects). */
async function command(port: number, args: string[]): Promise<string> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  client.on('error', () => undefined); // a node still starting: the caller asks again
  try {
    await client.connect();
    const [name, ...rest] = args;
    return String(await client.call(name as string, ...rest));
  } finally {
    client.disconnect();
  }
}
