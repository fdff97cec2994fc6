import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Clock, DomainError, hashApiKey, isDomainError, isWellFormedApiKey, type Principal } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';

/** How long an answer of the organization service is reused; revocation must bite within 5 s. */
export const AUTH_CACHE_TTL_MS = 2000;
const AUTH_CACHE_MAX_ENTRIES = 10_000;
const REJECTION_CACHE_MAX_ENTRIES = 10_000;

/** A definite "no" for a key, cached like a principal (a cache holds objects, not null). */
const REJECTED = Symbol('rejected');
type Answer = Principal | typeof REJECTED;

/**
 * Turns an Authorization header into the calling principal. The organization service owns the
 * keys (stored as hashes), so the raw key never leaves this process: only its hash is sent.
 * Answers, including `authentication_failed`, are cached for at most AUTH_CACHE_TTL_MS, and
 * concurrent lookups of one key share a single command. Rejections live in their own cache, so
 * a flood of made-up keys cannot push the valid keys out and turn every request into a lookup.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache: LRUCache<string, Principal>;
  private readonly rejections: LRUCache<string, typeof REJECTED>;
  private readonly inFlight = new Map<string, Promise<Principal | null>>();

  constructor(
    private readonly bus: CommandBus,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly clock: Clock,
  ) {
    // Time comes from the clock (tests drive it), read at every look-up (ttlResolution 0).
    const timing = { ttl: AUTH_CACHE_TTL_MS, ttlResolution: 0, perf: { now: () => this.clock.now().getTime() } };
    this.cache = new LRUCache<string, Principal>({ ...timing, max: AUTH_CACHE_MAX_ENTRIES });
    this.rejections = new LRUCache<string, typeof REJECTED>({ ...timing, max: REJECTION_CACHE_MAX_ENTRIES });
  }

  async authenticate(authorization: string | undefined, requestId: string): Promise<Principal> {
    if (authorization === undefined) {
      throw new DomainError('missing_api_key', 'No API key was provided. Send it as "Authorization: Bearer <api_key>".');
    }
    const key = this.parseBearer(authorization);
    const keyHash = hashApiKey(key, this.config.apiKeyPepper);
    const principal = await this.lookup(keyHash, requestId);
    if (!principal) throw new DomainError('authentication_failed', 'The API key is unknown or has been revoked.');
    return principal;
  }

  private parseBearer(authorization: string): string {
    // RFC 9110: the scheme is case-insensitive; exactly one space, then the key.
    const match = /^bearer ([^\s]+)$/i.exec(authorization);
    const key = match?.[1];
    if (!key || !isWellFormedApiKey(key, this.config.serviceEnv)) {
      const expected = this.config.serviceEnv === 'production' ? 'sk_live_' : 'sk_test_';
      throw new DomainError(
        'invalid_api_key',
        `The Authorization header must be "Bearer <api_key>" with a ${this.config.serviceEnv} key (${expected}…).`,
      );
    }
    return key;
  }

  private async lookup(keyHash: string, requestId: string): Promise<Principal | null> {
    const cached: Answer | undefined = this.cache.get(keyHash) ?? this.rejections.get(keyHash);
    if (cached) return cached === REJECTED ? null : cached;

    let pending = this.inFlight.get(keyHash);
    if (!pending) {
      pending = this.ask(keyHash, requestId).finally(() => this.inFlight.delete(keyHash));
      this.inFlight.set(keyHash, pending);
    }
    return pending;
  }

  private async ask(keyHash: string, requestId: string): Promise<Principal | null> {
    // The TTL counts from the question, so an answer is never older than AUTH_CACHE_TTL_MS.
    const askedAt = this.clock.now().getTime();
    let principal: Principal | null;
    try {
      const result = await this.bus.send('organization', 'api-keys.authenticate', { keyHash }, { requestId });
      principal = { organizationId: result.organizationId, keyId: result.keyId };
    } catch (error) {
      // Only a definite "no" is remembered; an unavailable service is not.
      if (!isDomainError(error) || error.code !== 'authentication_failed') throw error;
      principal = null;
    }
    if (principal) this.cache.set(keyHash, principal, { start: askedAt });
    else this.rejections.set(keyHash, REJECTED, { start: askedAt });
    return principal;
  }
}
