import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** This request's `req_…` id, passed on with every command it sends. */
export const RequestId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => context.switchToHttp().getRequest<FastifyRequest>().requestId,
);
