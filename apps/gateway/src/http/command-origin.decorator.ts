import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { newId } from '@pfs/contracts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The id of the commands this request sends (CommandMeta.commandId): derived from the
     * Idempotency-Key when the request carries one (see IdempotencyGuard), so a retry is
     * recognized by the owning service; otherwise drawn once for the request.
     */
    commandId: string | null;
  }
}

/** What every command a request sends carries: its request id and its command id. */
export interface CommandOrigin {
  requestId: string;
  commandId: string;
}

export const CommandOrigin = createParamDecorator((_data: unknown, context: ExecutionContext): CommandOrigin => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  request.commandId ??= newId('command');
  return { requestId: request.requestId, commandId: request.commandId };
});
