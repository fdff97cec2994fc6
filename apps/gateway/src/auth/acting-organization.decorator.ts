import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The organization the request acts for: the client named in `Service-On-Behalf-Of` on a
 * route that declared @OnBehalfOf and once the organization service allowed it, else the caller's own.
 */
export const ActingOrganizationId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  // The guards run before any handler; reaching here without a principal is a wiring fault.
  if (!request.principal) throw new Error('ActingOrganizationId used on a route without authentication');
  return request.onBehalfOf ?? request.principal.organizationId;
});
