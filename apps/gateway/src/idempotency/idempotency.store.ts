import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger, SecretBoxRing } from '@pfs/platform';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from '../gateway.tokens';
import { GatewayRedis, RedisScript } from '../redis/gateway-redis';

/*
 * One Redis hash per (organization, on-behalf-of, key): `state` running|done, the owner's
 * `token`, the request `fingerprint`, the first `requestId` and, once done, `status` and `body`.
 * Every transition is one Lua script, so replicas never interleave. A running record lives
 * only as long as its lease, renewed by its owner while the request runs: a replica that dies
 * mid-request lets the lease lapse and a retry may run. A done record lives 24 h.
 *
 * A response may carry a new API key, a webhook signing secret or a payee's IBAN, date of
 * birth and address, so the `body` is sealed (AES-256-GCM, IDEMPOTENCY_REPLAY_KEY) and
 * the `fingerprint`, a digest of a request that carries them too, is keyed by the same ring
 * (HMAC), so no one can confirm a guessed value against it. The rest names no one: ids, a
 * random token, the status. No response header is stored.
 */

/** Existing record's fields, or nil after writing a fresh running claim. */
const CLAIM = new RedisScript('pfsIdempotencyClaim', 1, `
local existing = redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'status', 'body', 'requestId')
if existing[1] then return existing end
redis.call('HSET', KEYS[1], 'state', 'running', 'token', ARGV[1], 'fingerprint', ARGV[2], 'requestId', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return false
`);

const RENEW = new RedisScript('pfsIdempotencyRenew', 1, `
if redis.call('HGET', KEYS[1], 'token') == ARGV[1] and redis.call('HGET', KEYS[1], 'state') == 'running' then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`);

const COMPLETE = new RedisScript('pfsIdempotencyComplete', 1, `
if redis.call('HGET', KEYS[1], 'token') == ARGV[1] and redis.call('HGET', KEYS[1], 'state') == 'running' then
  redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[2], 'body', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return 1
end
return 0
`);

/** Deletes a done record whose body is still the one given (one no key of the ring opens). */
const FORGET = new RedisScript('pfsIdempotencyForget', 1, `
if redis.call('HGET', KEYS[1], 'state') == 'done' and redis.call('HGET', KEYS[1], 'body') == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

const RELEASE = new RedisScript('pfsIdempotencyRelease', 1, `
if redis.call('HGET', KEYS[1], 'token') == ARGV[1] and redis.call('HGET', KEYS[1], 'state') == 'running' then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

export interface IdempotencyScope {
  organizationId: string;
  /** The `Service-On-Behalf-Of` client, or null: a key used for a client is not the caller's own key. */
  onBehalfOf: string | null;
  key: string;
}

/** A running claim this replica owns. */
export interface IdempotencyClaim {
  redisKey: string;
  token: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'replay'; status: number; body: string; originalRequestId: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

@Injectable()
export class IdempotencyStore {
  constructor(
    private readonly redis: GatewayRedis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  get leaseMs(): number {
    return this.config.idempotencyLeaseMs;
  }

  redisKeyOf(scope: IdempotencyScope): string {
    // Hashed: a key may be any 255 characters, and the Redis key stays short and printable.
    const digest = createHash('sha256').update(scope.key).digest('hex');
    // `sealed`: a namespace of its own, so during an upgrade a replica of the previous release
    // (which stored bodies in clear) never replays a sealed body as a response. A retry that
    // crosses the two runs again under the same command id, answered from the command logs.
    return this.redis.key('idempotency', 'sealed', scope.organizationId, scope.onBehalfOf ?? 'self', digest);
  }

  async claim(scope: IdempotencyScope, fingerprint: string, requestId: string): Promise<ClaimOutcome> {
    const redisKey = this.redisKeyOf(scope);
    const token = randomBytes(16).toString('hex');
    const keyed = this.box.fingerprint(fingerprint);
    // A second unknown key in a row means replicas disagree on the ring: an error, not a loop.
    for (let forgotten = 0; forgotten < 2; forgotten += 1) {
      const existing = (await this.redis.run(CLAIM, [redisKey], [token, keyed, requestId, this.leaseMs])) as Array<string | null> | null;
      if (!existing) return { kind: 'claimed', claim: { redisKey, token } };
      const [state, storedFingerprint, status, sealedBody, originalRequestId] = existing;
      const done = state === 'done' && status !== null && status !== undefined && sealedBody !== null && sealedBody !== undefined;
      const body = done ? this.open(sealedBody) : undefined;
      if (done && body === undefined) {
        // Sealed under a key since dropped from the ring, so neither the body nor the request
        // can be told: forgotten, and the request runs again under the same command id. The
        // services answer a mutation from their command logs, and refuse another payload.
        this.logger.warn({ status }, 'idempotency record sealed with an unknown key: running the request again');
        await this.redis.run(FORGET, [redisKey], [sealedBody]);
        continue;
      }
      // Any key of the ring: a record stored before a rotation still matches its request.
      if (storedFingerprint === null || !this.box.recognizes(fingerprint, storedFingerprint)) return { kind: 'mismatch' };
      if (body === undefined) return { kind: 'in_flight' };
      return { kind: 'replay', status: Number(status), body, originalRequestId: originalRequestId ?? '' };
    }
    throw new Error('idempotency records are sealed with a key this replica does not have (IDEMPOTENCY_REPLAY_KEY)');
  }

  /** Extends the lease; false once the claim is no longer this replica's. */
  async renew(claim: IdempotencyClaim): Promise<boolean> {
    return (await this.redis.run(RENEW, [claim.redisKey], [claim.token, this.leaseMs])) === 1;
  }

  /** Stores the response for replay; false if the claim had lapsed and was taken over. */
  async complete(claim: IdempotencyClaim, status: number, body: string): Promise<boolean> {
    const ttlMs = this.config.idempotencyTtlSeconds * 1000;
    return (await this.redis.run(COMPLETE, [claim.redisKey], [claim.token, status, this.box.seal(body), ttlMs])) === 1;
  }

  private get box(): SecretBoxRing {
    return this.config.idempotencyReplayBox;
  }

  private open(sealedBody: string): string | undefined {
    try {
      return this.box.open(sealedBody);
    } catch {
      return undefined;
    }
  }

  /** Forgets the claim, so a retry with the key runs afresh. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.redis.run(RELEASE, [claim.redisKey], [claim.token]);
  }
}
