import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { commandIdForIdempotencyKey, DomainError } from '@pfs/contracts';
import type { Logger } from '@pfs/platform';
import { RequestValidationError } from '../errors/request-validation-error';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { IdempotencyStore, type IdempotencyClaim, type IdempotencyScope } from './idempotency.store';
import { IdempotentReplay } from './idempotent-replay.filter';
import { requestFingerprint } from './request-fingerprint';

/**
 * Every route with one of these methods honours `Idempotency-Key` (api-decisions §9):
 * idempotent-routes binds the guard to their handlers alone.
 */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** A claim this request owns until its response is stored or released (see idempotency.hooks). */
export interface PendingIdempotency {
  /** Called once with the final status and serialized body, just before they are sent. */
  settle(status: number, payload: unknown): Promise<void>;
  /** The request failed validation before reaching the endpoint: not stored, so a corrected retry may run. */
  releaseOnly: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: PendingIdempotency | null;
  }
}

/**
 * The last guard of every POST, PUT and PATCH route (bound by idempotent-routes), so a request
 * refused by authentication, the rate limit or on-behalf-of never claims a key. The first
 * response to a key is stored (idempotency.hooks) and replayed to every later request with the
 * same key, method, path and body (IdempotentReplay, answered by its filter without running the
 * handler); a different request with the key is 422, a concurrent one 409. A 5xx and a request
 * that failed validation are not stored: the key is released and a retry runs. Without the
 * header the request simply runs, with no promise made.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly store: IdempotencyStore,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const key = readIdempotencyKey(request);
    if (key === undefined || !request.principal) return true;
    return this.claim(request, http.getResponse<FastifyReply>(), { organizationId: request.principal.organizationId, onBehalfOf: request.onBehalfOf, key });
  }

  private async claim(request: FastifyRequest, reply: FastifyReply, scope: IdempotencyScope): Promise<boolean> {
    // The commands of every retry of this request carry the same id: if the first attempt
    // committed but its reply was lost, the owning service answers the retry with that result.
    request.commandId = commandIdForIdempotencyKey(scope.organizationId, scope.onBehalfOf, scope.key);
    const outcome = await this.store.claim(scope, requestFingerprint(request.method, request.url, request.body), request.requestId);
    switch (outcome.kind) {
      case 'mismatch':
        throw new DomainError(
          'idempotency_key_in_use',
          'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
        );
      case 'in_flight':
        throw new DomainError('idempotency_request_in_flight', 'A request with this Idempotency-Key is still being processed. Retry once it has completed.');
      case 'replay':
        throw new IdempotentReplay(outcome);
      case 'claimed':
        request.idempotency = this.track(outcome.claim, reply);
        return true;
    }
  }

  /** Keeps the lease alive while the request runs; settles once with the final response. */
  private track(claim: IdempotencyClaim, reply: FastifyReply): PendingIdempotency {
    const renewal = setInterval(() => {
      this.store.renew(claim).then(
        (owned) => {
          if (!owned) clearInterval(renewal);
        },
        (error: unknown) => this.logger.warn({ err: (error as Error).message }, 'idempotency lease renewal failed'),
      );
    }, Math.max(50, Math.floor(this.store.leaseMs / 3)));
    renewal.unref();
    // However the response ends (sent, or the connection dropped), renewals stop.
    reply.raw.once('close', () => clearInterval(renewal));

    const pending: PendingIdempotency = {
      releaseOnly: false,
      settle: async (status, payload) => {
        clearInterval(renewal);
        try {
          if (status >= 500 || pending.releaseOnly || typeof payload !== 'string') {
            await this.store.release(claim);
          } else if (!(await this.store.complete(claim, status, payload))) {
            this.logger.warn({ status }, 'idempotency claim lapsed before the response was stored');
          }
        } catch (error) {
          // The response still goes out; an unreleased claim lapses with its lease.
          this.logger.error({ err: (error as Error).message }, 'idempotency record could not be written');
        }
      },
    };
    return pending;
  }
}

function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new RequestValidationError(`Idempotency-Key: must be between 1 and ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  return value;
}
