import type { FastifyRequest } from 'fastify';

/** The matched route (`/v1/accounts/:accountId`), or null when the request matched none. */
export function routeTemplateOf(request: FastifyRequest): string | null {
  const template = request.routeOptions?.url;
  return template && template !== '*' && template !== '/*' ? template : null;
}
