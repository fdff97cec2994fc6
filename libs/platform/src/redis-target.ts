/**
 * Where the apps find Redis. One server is a `redis://` (or `rediss://`) URL, REDIS_URL. A Redis
 * Cluster is REDIS_CLUSTER_NODES, a comma-separated list of some of its primaries
 * (`host:port` or `redis://[user:password@]host:port`), which readPlatformConfig turns into one
 * `redis-cluster://` target so that every option that carries a Redis URL can carry a cluster.
 */
export interface ClusterNode {
  host: string;
  port: number;
  username?: string;
  password?: string;
  tls: boolean;
}

const CLUSTER_SCHEME = 'redis-cluster://';

/** The target of a REDIS_CLUSTER_NODES list; throws on an entry that is not host:port. */
export function clusterTarget(nodesSetting: string): string {
  const entries = nodesSetting
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!entries.length) throw new Error('REDIS_CLUSTER_NODES is set but names no node');
  for (const entry of entries) parseNode(entry);
  return `${CLUSTER_SCHEME}${entries.join(',')}`;
}

/** The cluster's seed nodes when the target is a cluster, null for one server. */
export function clusterNodesOf(target: string): ClusterNode[] | null {
  if (!target.startsWith(CLUSTER_SCHEME)) return null;
  return target.slice(CLUSTER_SCHEME.length).split(',').map(parseNode);
}

/**
 * A key prefix whose keys all hash to one slot: `{pfs}`. BullMQ's scripts touch several keys
 * of a queue at once, and a cluster runs a script only when all its keys share a slot.
 */
export function hashTagged(prefix: string): string {
  return /\{[^}]+\}/.test(prefix) ? prefix : `{${prefix}}`;
}

/** The same prefix without its hash tag, for keys that should spread over the cluster's slots. */
export function untagged(prefix: string): string {
  return prefix.replace(/[{}]/g, '');
}

function parseNode(entry: string): ClusterNode {
  const url = new URL(entry.includes('://') ? entry : `redis://${entry}`);
  const port = Number(url.port || 6379);
  if (!url.hostname || !['redis:', 'rediss:'].includes(url.protocol) || !Number.isInteger(port)) {
    throw new Error(`REDIS_CLUSTER_NODES: ${entry.replace(/\/\/[^@]*@/, '//***@')} is not host:port or redis://host:port`);
  }
  return {
    host: url.hostname,
    port,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    tls: url.protocol === 'rediss:',
  };
}
