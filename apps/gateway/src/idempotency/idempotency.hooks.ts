import type { FastifyInstance } from 'fastify';

/**
 * Stores (or releases) a request's idempotency claim in onSend: the status and the body are
 * final there, for successes and errors alike, and the response waits for the write, so a
 * client that has the response and retries always gets the replay.
 */
export function installIdempotencyHooks(instance: FastifyInstance): void {
  instance.decorateRequest('idempotency', null);
  instance.decorateRequest('commandId', null);
  // Callback style: a request with no claim (every read) goes on at once, with no promise made.
  instance.addHook('onSend', (request, reply, payload, done) => {
    const pending = request.idempotency;
    if (!pending) {
      done(null, payload);
      return;
    }
    request.idempotency = null;
    pending.settle(reply.statusCode, payload).then(
      () => done(null, payload),
      (error: unknown) => done(error as Error),
    );
  });
}
