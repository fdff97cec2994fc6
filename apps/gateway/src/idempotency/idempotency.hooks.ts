import type { FastifyInstance } from 'fastify';

/**
 * Stores (or releases) a request's idempotency claim in onSend: the status and the body are
 * final there, for successes and errors alike, and the response waits for the write, so a
 * client that has the response and retries always gets the replay.
 */
export function installIdempotencyHooks(instance: FastifyInstance): void {
  instance.decorateRequest('idempotency', null);
  instance.decorateRequest('commandId', null);
  instance.addHook('onSend', async (request, reply, payload) => {
    const pending = request.idempotency;
    if (!pending) return payload;
    request.idempotency = null;
    await pending.settle(reply.statusCode, payload);
    return payload;
  });
}
