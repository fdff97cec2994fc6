import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExtension } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '@pfs/contracts';

/** The two codes of a malformed request (api-decisions §2); each endpoint answers with one. */
export type RequestErrorCode = Extract<ErrorCode, 'invalid_request' | 'validation_error'>;

export const DEFAULT_REQUEST_ERROR_CODE: RequestErrorCode = 'invalid_request';
/** Read by the OpenAPI post-processor, then removed from the document. */
export const REQUEST_ERROR_CODE_EXTENSION = 'x-pfs-request-error-code';

interface RouteConfigWithCode {
  requestErrorCode?: RequestErrorCode;
}

/**
 * Declares the code the route answers a malformed request with (body, query or header: JSON
 * that does not parse, a body too large, a field that fails validation). Without it the route
 * answers `invalid_request`. Kept in the Fastify route config, so even errors raised while the
 * body is read, before any Nest code runs, are answered with the route's code.
 */
export function RequestErrorCode(code: RequestErrorCode): MethodDecorator {
  return applyDecorators(RouteConfig({ requestErrorCode: code } satisfies RouteConfigWithCode), ApiExtension(REQUEST_ERROR_CODE_EXTENSION, code));
}

export function requestErrorCodeOf(request: FastifyRequest): RequestErrorCode {
  const config = request.routeOptions?.config as RouteConfigWithCode | undefined;
  return config?.requestErrorCode ?? DEFAULT_REQUEST_ERROR_CODE;
}
