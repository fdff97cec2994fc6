import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@pfs/contracts';
import { IS_PUBLIC } from '../auth/public.decorator';
import { RateLimiter, type RateLimitDecision } from './rate-limiter';

export const RATE_LIMIT_POLICY_HEADER = 'RateLimit-Policy';
export const RATE_LIMIT_HEADER = 'RateLimit';
export const RETRY_AFTER_HEADER = 'Retry-After';

/**
 * Global guard after authentication (api-decisions §10): every authenticated request counts
 * against its API key's budget and carries the RateLimit headers (IETF httpapi-ratelimit-headers);
 * over the budget it is answered 429 `rate_limited` with `Retry-After`, before anything else runs.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    const principal = http.getRequest<FastifyRequest>().principal;
    // The API key guard runs first and throws without a principal; this is a wiring fault.
    if (!principal) throw new Error('RateLimitGuard ran before authentication');
    const decision = await this.limiter.consume(principal.keyId);
    const reply = http.getResponse<FastifyReply>();
    void reply.header(RATE_LIMIT_POLICY_HEADER, `"default";q=${decision.limit};w=${decision.windowSeconds}`);
    void reply.header(RATE_LIMIT_HEADER, `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (!decision.allowed) {
      void reply.header(RETRY_AFTER_HEADER, String(decision.resetSeconds));
      throw new DomainError('rate_limited', rateLimitedMessage(decision));
    }
    return true;
  }
}

/** Spec §7: the message states the limit and the seconds to wait. */
export function rateLimitedMessage(decision: Pick<RateLimitDecision, 'limit' | 'windowSeconds' | 'resetSeconds'>): string {
  const window = decision.windowSeconds === 60 ? 'minute' : `${decision.windowSeconds} seconds`;
  const wait = decision.resetSeconds === 1 ? '1 second' : `${decision.resetSeconds} seconds`;
  return `Rate limit exceeded: ${decision.limit} requests per ${window} per API key. Retry in ${wait}.`;
}
