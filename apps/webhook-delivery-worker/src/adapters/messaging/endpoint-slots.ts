import type { RedisClient } from '@pfs/messaging';
import { untagged } from '@pfs/platform';
import { ProcessEndpointSlots } from './process-endpoint-slots';

export interface EndpointSlotsOptions {
  /** Attempts in flight to one endpoint at once, across every worker process (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Jobs of this process waiting for a slot at once: each holds one of the worker's slots meanwhile. */
  maxWaiting: number;
  /**
   * How long a job waits for a slot before it is sent back to the queue's delayed set; an endpoint
   * none of whose slots has been taken or given back for this long, by any worker, is stalled,
   * and its jobs go back at once.
   */
  maxWaitMs: number;
  /** A slot not given back within this long (its worker was killed) frees itself. */
  leaseMs: number;
  /** The BullMQ key prefix: the slots live beside the queue's keys. */
  prefix: string;
  /** How often a job holding its process's slot asks Redis again while other workers hold the endpoint's. */
  retryMs?: number;
}

/** A slot held: give it back with `release`. */
export interface EndpointSlot {
  endpointId: string;
  token: string;
  /** When its lease began (this host's clock): see `keep`. */
  leasedAt: number;
}

// KEYS: the endpoint's slots (a sorted set of tokens by lease end), when a slot last moved.
// ARGV: cap, token, lease ms. Redis's own clock, so every worker agrees on leases.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
  redis.call('PEXPIRE', KEYS[1], lease)
  redis.call('SET', KEYS[2], now, 'PX', lease)
  return -1
end
local moved = tonumber(redis.call('GET', KEYS[2]) or '0')
return now - moved`;

const GIVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('SET', KEYS[2], now, 'PX', tonumber(ARGV[2]))
end
return 0`;

// KEYS: the endpoint's slots. ARGV: token, lease ms. A slot held longer than its lease (a job
// carrying several attempts) takes a new lease end.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 0`;

type SlotCommands = RedisClient & {
  endpointSlotRenew(slots: string, token: string, leaseMs: number): Promise<number>;
  endpointSlotTake(slots: string, moved: string, cap: number, token: string, leaseMs: number): Promise<number>;
  endpointSlotGive(slots: string, moved: string, token: string, leaseMs: number): Promise<number>;
};

/**
 * At most `perEndpoint` attempts to one endpoint at once, across every worker process. Two gates:
 * in this process (`ProcessEndpointSlots`: a job over the cap waits in memory, first come first
 * served, while the endpoint's attempts keep ending, so a busy but healthy endpoint's burst is
 * served within milliseconds), then in Redis, shared by the workers: a sorted set of leased slots
 * per endpoint (both keys in one hash slot), so a killed worker's slots free themselves. Only a job
 * holding its process's slot asks Redis, so at most `perEndpoint` jobs per process poll it for a
 * busy endpoint. An endpoint that hangs stops freeing slots: its waiters go back to the queue's
 * delayed set after `maxWaitMs`, its later jobs at once, so it holds only its cap of the workers'
 * slots. With one worker the Redis gate never refuses what the process gate let through.
 */
export class EndpointSlots {
  private readonly redis: SlotCommands;
  private readonly local: ProcessEndpointSlots;
  private sequence = 0;

  constructor(
    redis: RedisClient,
    private readonly options: EndpointSlotsOptions,
    private readonly holder: string,
  ) {
    redis.defineCommand('endpointSlotTake', { numberOfKeys: 2, lua: TAKE });
    redis.defineCommand('endpointSlotGive', { numberOfKeys: 2, lua: GIVE });
    redis.defineCommand('endpointSlotRenew', { numberOfKeys: 1, lua: RENEW });
    this.redis = redis as SlotCommands;
    this.local = new ProcessEndpointSlots({ perEndpoint: options.perEndpoint, maxWaiting: options.maxWaiting, maxWaitMs: options.maxWaitMs });
  }

  /** A slot, or null when the job should go back to the queue. */
  async acquire(endpointId: string): Promise<EndpointSlot | null> {
    const deadline = Date.now() + this.options.maxWaitMs;
    if (!(await this.local.acquire(endpointId))) return null;
    const slot: EndpointSlot = { endpointId, token: `${this.holder}:${(this.sequence += 1)}`, leasedAt: Date.now() };
    try {
      for (;;) {
        const idleMs = await this.take(slot);
        if (idleMs < 0) return slot;
        // Other workers hold every slot: wait while theirs keep moving, up to the same bound.
        if (idleMs >= this.options.maxWaitMs || Date.now() >= deadline) break;
        await new Promise((resolve) => setTimeout(resolve, Math.min(this.options.retryMs ?? 25, deadline - Date.now())));
      }
    } catch (error) {
      this.local.release(endpointId);
      throw error;
    }
    this.local.release(endpointId);
    return null;
  }

  /** Before another attempt under the same slot: a lease past half its length is renewed, so it never ends while held. */
  async keep(slot: EndpointSlot): Promise<void> {
    if (Date.now() - slot.leasedAt < this.options.leaseMs / 2) return;
    const [slots] = this.keys(slot.endpointId);
    slot.leasedAt = Date.now();
    await this.redis.endpointSlotRenew(slots, slot.token, this.options.leaseMs);
  }

  async release(slot: EndpointSlot): Promise<void> {
    try {
      const [slots, moved] = this.keys(slot.endpointId);
      await this.redis.endpointSlotGive(slots, moved, slot.token, this.options.leaseMs);
    } finally {
      this.local.release(slot.endpointId);
    }
  }

  /** Attempts in flight to the endpoint, across workers (for tests and metrics). */
  async inFlight(endpointId: string): Promise<number> {
    const [slots] = this.keys(endpointId);
    return this.redis.zcount(slots, `(${Date.now()}`, '+inf');
  }

  private take(slot: EndpointSlot): Promise<number> {
    const [slots, moved] = this.keys(slot.endpointId);
    return this.redis.endpointSlotTake(slots, moved, this.options.perEndpoint, slot.token, this.options.leaseMs);
  }

  private keys(endpointId: string): [string, string] {
    // One hash tag per endpoint: both keys of a script in one Redis Cluster slot.
    const prefix = untagged(this.options.prefix);
    return [`${prefix}:endpoint-slots:{${endpointId}}`, `${prefix}:endpoint-slots-moved:{${endpointId}}`];
  }
}
