import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDomainError, newRequestId, type ErrorCode } from '@pfs/contracts';
import { RemoteDomainError, ServiceUnavailableError } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { routeTemplateOf } from '../http/route-template';
import { requestErrorCodeOf } from '../validation/request-error-code.decorator';
import { statusOf } from './error-status.table';
import { RequestValidationError } from './request-validation-error';

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; requestId: string };
}

interface RenderedError {
  status: number;
  code: ErrorCode;
  message: string;
  /** A malformed request (body, query, header): answered with the route's declared code. */
  malformedRequest?: true;
}

const NOT_FOUND: RenderedError = {
  status: 404,
  code: 'not_found',
  message: 'Unrecognized request URL. See /docs for the available endpoints.',
};

const GENERIC_500 = 'An unexpected error occurred. Quote the requestId if you contact support.';

/**
 * Renders every failure as `{error: {code, message, requestId}}`. Only messages we wrote
 * reach the client: a domain error's (it crossed the queue as `{code, message}` or was raised
 * here), or a fixed text per framework failure. Anything else is a 500 with a generic message;
 * its detail goes to the log only.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // Refused as malformed here, after its Idempotency-Key was claimed (a pipe found the body
    // invalid): the answer is not stored, so a corrected retry with the key runs.
    if (exception instanceof RequestValidationError && request.idempotency) request.idempotency.releaseOnly = true;
    // An unknown route is 404 whatever else is wrong with the request (e.g. its body).
    const rendered = routeTemplateOf(request) === null ? NOT_FOUND : this.render(exception);
    const code = rendered.malformedRequest ? requestErrorCodeOf(request) : rendered.code;
    // The header (set in onSend) and the body must carry the same id.
    request.requestId ||= newRequestId();
    const body: ErrorEnvelope = { error: { code, message: rendered.message, requestId: request.requestId } };
    void reply.status(rendered.status).type('application/json; charset=utf-8').send(body);
  }

  render(exception: unknown): RenderedError {
    if (exception instanceof ServiceUnavailableError) {
      this.logger.warn({ target: exception.service }, 'service unavailable');
      return { status: 503, code: 'internal_error', message: exception.message };
    }
    // Malformed input found here, or by a service (e.g. a cursor that does not decode): both are
    // answered with the route's code, so one endpoint never answers malformed input two ways.
    if (exception instanceof RequestValidationError || (exception instanceof RemoteDomainError && exception.code === 'invalid_request')) {
      return { status: 400, code: exception.code, message: exception.message, malformedRequest: true };
    }
    if (isDomainError(exception)) {
      const status = statusOf(exception.code);
      if (status >= 500) this.logger.error({ code: exception.code, detail: exception.message }, 'request failed');
      return { status, code: exception.code, message: status === 500 ? GENERIC_500 : exception.message };
    }
    if (exception instanceof HttpException) {
      const framework = renderFrameworkError(exception);
      if (framework) return framework;
    }
    this.logger.error({ err: describeUnexpected(exception) }, 'unhandled error');
    return { status: 500, code: 'internal_error', message: GENERIC_500 };
  }
}

/** Errors Fastify or Nest raise before a handler runs: unknown routes and unreadable bodies. */
function renderFrameworkError(exception: HttpException): RenderedError | null {
  const status = exception.getStatus();
  const fastifyCode = (exception.cause as { code?: unknown } | undefined)?.code;
  if (status === 404 || status === 405) return NOT_FOUND;
  if (status === 413 || fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return malformed('The request body is too large.');
  }
  if (status === 415 || fastifyCode === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return malformed('Content-Type must be application/json.');
  }
  if (fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return malformed('The request body is empty; send a JSON object.');
  }
  if (status === 400 || status === 422) {
    return malformed('The request body is not valid JSON.');
  }
  if (status > 400 && status < 500) {
    return malformed('The request could not be read.');
  }
  return null;
}

function malformed(message: string): RenderedError {
  return { status: 400, code: 'invalid_request', message, malformedRequest: true };
}

function describeUnexpected(exception: unknown): Record<string, unknown> {
  if (exception instanceof Error) return { type: exception.name, message: exception.message, stack: exception.stack };
  return { type: typeof exception, value: String(exception) };
}
