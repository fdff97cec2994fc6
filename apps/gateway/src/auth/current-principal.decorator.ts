import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@pfs/contracts';

/** The caller the API key guard established; only on authenticated routes. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().principal;
  // The guard runs before any handler; reaching here without a principal is a wiring fault.
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
