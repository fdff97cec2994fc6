import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClaimOutcome } from './idempotency.store';

export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const ORIGINAL_REQUEST_HEADER = 'Original-Request';

type StoredResponse = Extract<ClaimOutcome, { kind: 'replay' }>;

/**
 * The idempotency guard's answer when the key's first response is stored: it leaves the guard
 * as this, as the other answers decided before a handler runs (401, 429) leave theirs, so the
 * handler never runs; IdempotentReplayFilter sends the stored response.
 */
export class IdempotentReplay extends Error {
  constructor(readonly stored: StoredResponse) {
    super('the stored response to this Idempotency-Key is replayed');
  }
}

/**
 * Bound with the idempotency guard (idempotent-routes): the stored status and body again, with
 * `Idempotent-Replayed: true` and the first request's id in `Original-Request`; an error body
 * gets this request's id, like its X-Request-Id header.
 */
@Catch(IdempotentReplay)
export class IdempotentReplayFilter implements ExceptionFilter<IdempotentReplay> {
  catch({ stored }: IdempotentReplay, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>().code(stored.status).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    if (stored.originalRequestId) void reply.header(ORIGINAL_REQUEST_HEADER, stored.originalRequestId);
    let body: unknown;
    try {
      body = JSON.parse(stored.body);
    } catch {
      void reply.type('application/json; charset=utf-8').send(stored.body);
      return;
    }
    const error = (body as { error?: { requestId?: unknown } } | null)?.error;
    if (error && typeof error === 'object' && 'requestId' in error) error.requestId = request.requestId;
    void reply.send(body);
  }
}
