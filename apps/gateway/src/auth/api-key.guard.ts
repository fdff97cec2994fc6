import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@pfs/contracts';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { IS_PUBLIC } from './public.decorator';

/** Global guard: every route needs `Authorization: Bearer <api_key>` unless marked @Public(). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    // Node keeps only the first of repeated Authorization headers; which key was meant is unknowable.
    const authorization = request.raw.headersDistinct.authorization ?? [];
    if (authorization.length > 1) {
      throw new DomainError('invalid_api_key', 'Send exactly one Authorization header: "Authorization: Bearer <api_key>".');
    }
    request.principal = await this.authenticator.authenticate(authorization[0], request.requestId);
    return true;
  }
}
