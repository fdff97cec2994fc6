import { readPlatformConfig } from '../src/config';
import { clusterNodesOf, clusterTarget, hashTagged, untagged } from '../src/redis-target';

describe('where the apps find Redis', () => {
  it('is one server by default, with the prefix as it is set', () => {
    const config = readPlatformConfig({ REDIS_URL: 'redis://cache:6380', QUEUE_PREFIX: 'pfs' });
    expect(config.redisUrl).toBe('redis://cache:6380');
    expect(clusterNodesOf(config.redisUrl)).toBeNull();
    expect(config.queuePrefix).toBe('pfs');
  });

  it('is a cluster when REDIS_CLUSTER_NODES is set, whatever REDIS_URL says, and the queues share a hash tag', () => {
    const config = readPlatformConfig({ REDIS_URL: 'redis://cache:6380', REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis://:s3cret@10.0.0.2:7001 ,rediss://ops@10.0.0.3', QUEUE_PREFIX: 'pfs' });
    expect(config.queuePrefix).toBe('{pfs}');
    expect(clusterNodesOf(config.redisUrl)).toEqual([
      { host: '10.0.0.1', port: 7000, tls: false },
      { host: '10.0.0.2', port: 7001, password: 's3cret', tls: false },
      { host: '10.0.0.3', port: 6379, username: 'ops', tls: true },
    ]);
  });

  it('refuses a node list it cannot read, without echoing a password', () => {
    expect(() => clusterTarget(' , ')).toThrow('names no node');
    expect(() => clusterTarget('http://:hunter2@node:7000')).toThrow(/^REDIS_CLUSTER_NODES: http:\/\/\*\*\*@node:7000 is not/);
    expect(() => clusterTarget('http://:hunter2@node:7000')).not.toThrow(/hunter2/);
  });

  it('tags a prefix once and can take the tag off again', () => {
    expect(hashTagged('pfs')).toBe('{pfs}');
    expect(hashTagged('{pfs}')).toBe('{pfs}');
    expect(untagged('{pfs}')).toBe('pfs');
    expect(untagged('t-1')).toBe('t-1');
  });
});
