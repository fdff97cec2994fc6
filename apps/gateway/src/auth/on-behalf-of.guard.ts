import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@pfs/contracts';
import { IS_PUBLIC } from './public.decorator';

export const ON_BEHALF_OF_HEADER = 'service-on-behalf-of';

/**
 * api-decisions §3: a route that does not support `Service-On-Behalf-Of` rejects a request
 * carrying it instead of silently acting as the caller. No route supports it yet; this is the
 * one place that decides, so making it per-route later touches nothing else.
 */
@Injectable()
export class OnBehalfOfGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.headers[ON_BEHALF_OF_HEADER] !== undefined) {
      throw new DomainError('invalid_request', 'Service-On-Behalf-Of is not supported on this endpoint.');
    }
    return true;
  }
}
