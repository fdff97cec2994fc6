import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError, isId } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import { RequestValidationError } from '../errors/request-validation-error';
import { ON_BEHALF_OF_HEADER, ON_BEHALF_OF_POLICY, type OnBehalfOfPolicy } from './on-behalf-of.decorator';
import { IS_PUBLIC } from './public.decorator';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client named in `Service-On-Behalf-Of` once the organization service allowed it; else null. */
    onBehalfOf: string | null;
  }
}

/**
 * Global guard after authentication and the rate limit: the one place that reads
 * `Service-On-Behalf-Of`. Routes that did not declare @OnBehalfOf refuse it (api-decisions §3)
 * instead of silently acting as the caller; routes that did ask the organization service
 * whether the caller may act for that client.
 */
@Injectable()
export class OnBehalfOfGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly bus: CommandBus,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const policy = this.reflector.getAllAndOverride<OnBehalfOfPolicy | undefined>(ON_BEHALF_OF_POLICY, targets);
    const header = request.headers[ON_BEHALF_OF_HEADER];
    request.onBehalfOf = null;

    if (header === undefined) {
      if (policy?.required) {
        throw new RequestValidationError('Service-On-Behalf-Of: is required on this endpoint; name the client organization (org_…).');
      }
      return true;
    }
    if (!policy) throw new DomainError('invalid_request', 'Service-On-Behalf-Of is not supported on this endpoint.');
    if (typeof header !== 'string' || !isId('organization', header)) {
      throw new RequestValidationError('Service-On-Behalf-Of: must be an organization id, org_ followed by 32 lowercase hex characters');
    }
    // The API key guard ran first; without a principal this route is wired wrongly.
    if (!request.principal) throw new Error('OnBehalfOfGuard ran before authentication');
    const allowed = await this.bus.send(
      'organization',
      'on-behalf-of.check',
      { callerOrganizationId: request.principal.organizationId, targetOrganizationId: header, mode: policy.mode },
      { requestId: request.requestId },
    );
    request.onBehalfOf = allowed.organizationId;
    return true;
  }
}
