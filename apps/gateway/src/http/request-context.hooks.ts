import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newRequestId, type Principal } from '@pfs/contracts';
import { failSpan, ROOT_TRACE_CONTEXT, runInTraceContext, runWithRequestId, startSpan, tracingEnabled, type Logger, type Span } from '@pfs/platform';
import { routeTemplateOf } from './route-template';
import { SECURITY_HEADERS } from './security-headers';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests received whose access-log line is not written yet: the drain waits for them. */
    requestsInFlight: RequestsInFlight;
  }
  interface FastifyRequest {
    /** `req_<32 hex>`, chosen on arrival; echoed in `X-Request-Id` and every error body. */
    requestId: string;
    /** Set by the API key guard on authenticated routes. */
    principal: Principal | null;
    /** The request's server span, when tracing is on. */
    traceSpan: Span | null;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

const UNTRACED_ROUTES = new Set(['/healthz', '/readyz']);

/**
 * The requests between `onRequest` and their access-log line (or their abort). Fastify's close
 * resolves once the connections have ended, which can come before the last response's
 * `onResponse` has run: a drain that waits for these writes every line before the process says
 * it stopped. A count, not a set of the requests: with them held in a long-lived set, V8 moved
 * much of each request's objects to its old generation under load, for a major collection to
 * clear about once a second.
 */
export class RequestsInFlight {
  private open = 0;
  private waiting: Array<() => void> = [];

  opened(): void {
    this.open += 1;
  }

  /** Once per opened request: when its response closes. */
  closed(): void {
    this.open -= 1;
    if (this.open > 0) return;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  get size(): number {
    return this.open;
  }

  /** Resolves once none is open, or after `boundMs` (a request whose end never came). */
  settled(boundMs: number): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, boundMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiting.push(done);
    });
  }
}

/**
 * Fastify hooks, so they cover every response: Nest routes, the Swagger routes, 404s and
 * errors raised before any route runs (body parsing). They give each request its id, put the
 * id in the logging context and write one access-log line when the response is sent.
 */
export function installRequestHooks(instance: FastifyInstance, logger: Logger): void {
  instance.decorateRequest('requestId', '');
  instance.decorateRequest('principal', null);
  instance.decorateRequest('onBehalfOf', null);
  instance.decorateRequest('traceSpan', null);
  const inFlight = new RequestsInFlight();
  instance.decorate('requestsInFlight', inFlight);

  instance.addHook('onRequest', (request, reply, done) => {
    inFlight.opened();
    // A response's 'close' comes once: after its 'finish' (onResponse, the access-log line) or,
    // when the client went away first, instead of it. Fastify's onRequestAbort would listen on the
    // request for that, and with it V8 promoted each request's objects as the set above did.
    reply.raw.once('close', () => inFlight.closed());
    const requestId = newRequestId();
    request.requestId = requestId;
    reply.header(REQUEST_ID_HEADER, requestId);
    // Fastify keeps the async context of onRequest through body parsing, guards and handler,
    // so every log line of the request carries its id (and, traced, the span's).
    if (!tracingEnabled()) return runWithRequestId(requestId, done);
    const route = routeTemplateOf(request);
    // Probes would be a trace every few seconds, of nothing a person looks for.
    if (route && UNTRACED_ROUTES.has(route)) return runWithRequestId(requestId, done);
    // A new trace per request: a partner's own trace context is not continued.
    const traced = startSpan(`${request.method} ${route ?? '(unmatched)'}`, {
      kind: 'server',
      parent: ROOT_TRACE_CONTEXT,
      attributes: { 'http.request.method': request.method, ...(route ? { 'http.route': route } : {}), 'pfs.request_id': requestId },
    });
    if (!traced) return runWithRequestId(requestId, done);
    request.traceSpan = traced.span;
    runWithRequestId(requestId, () => runInTraceContext(traced.context, done));
  });

  instance.addHook('onSend', (request, reply, payload, done) => {
    // A request rejected before onRequest ran (e.g. a malformed URL) still gets an id.
    if (!request.requestId) request.requestId = newRequestId();
    reply.header(REQUEST_ID_HEADER, request.requestId);
    reply.headers(SECURITY_HEADERS);
    done(null, payload);
  });

  instance.addHook('onResponse', (request, reply, done) => {
    const span = request.traceSpan;
    if (span) endRequestSpan(span, reply.statusCode);
    logger.info(
      {
        requestId: request.requestId,
        ...(span ? { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId } : {}),
        method: request.method,
        route: routeOf(request),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
    done();
  });
}

/**
 * Fastify's `frameworkErrors`: a URL it cannot decode, or a path segment longer than the router
 * accepts, is answered before any hook runs. Answer it in the same envelope, with a request id.
 */
export function frameworkErrorHandler(logger: Logger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const requestId = newRequestId();
    request.requestId = requestId;
    const status = error.code === 'FST_ERR_BAD_URL' ? 400 : 404;
    const body =
      status === 400
        ? { code: 'invalid_request', message: 'The request URL is malformed.' }
        : { code: 'not_found', message: 'Unrecognized request URL. See /docs for the available endpoints.' };
    logger.info({ requestId, method: request.method, route: '(unmatched)', status, fastifyCode: error.code }, 'request completed');
    void reply
      .code(status)
      .header(REQUEST_ID_HEADER, requestId)
      .headers(SECURITY_HEADERS)
      .type('application/json; charset=utf-8')
      .send({ error: { ...body, requestId } });
  };
}

function endRequestSpan(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  // A 4xx is the client's answer, not the server's failure (OpenTelemetry's HTTP conventions).
  if (status >= 500) failSpan(span, new Error(`HTTP ${status}`));
  span.end();
}

/** The route template (`/v1/accounts/:accountId`); the path only when no route matched. Never the query. */
function routeOf(request: FastifyRequest): string {
  return routeTemplateOf(request) ?? `(unmatched) ${request.url.split('?')[0]?.slice(0, 200) ?? ''}`;
}
