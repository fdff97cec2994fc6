import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { newRequestId } from '@pfs/contracts';
import type { Logger } from '@pfs/platform';
import { REQUEST_ID_HEADER } from './request-context.hooks';
import { SECURITY_HEADERS } from './security-headers';

/** Largest request head (request line and headers) read; more is answered 431. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** How often Node checks the request and header timeouts, so a slow client is cut off within this of its deadline. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1000;

const MESSAGES: Readonly<Record<number, string>> = {
  400: 'The request is not valid HTTP/1.1 (request line, headers, Content-Length or chunked encoding).',
  408: 'The request was not received in time.',
  431: 'The request headers are too large.',
};

/** The status of an error raised by Node's HTTP parser: its timeouts, its header limit, or anything else it refuses. */
export function clientErrorStatus(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses never reaches a route or a
 * hook, so it is answered here, in the error envelope with a request id and the security
 * headers, then the connection is closed (its framing can no longer be trusted).
 */
export function clientErrorHandler(logger: Logger): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = clientErrorStatus(error.code);
    const requestId = newRequestId();
    logger.info({ requestId, route: '(unparsed)', status, parserCode: error.code }, 'request completed');
    // Like Node's own handler: never write into a response that has already begun.
    if (socket.writable && !responseStarted(socket)) {
      const body = JSON.stringify({ error: { code: 'invalid_request', message: MESSAGES[status], requestId } });
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        [REQUEST_ID_HEADER]: requestId,
        ...SECURITY_HEADERS,
        connection: 'close',
      };
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
    }
    socket.destroy();
  };
}

function responseStarted(socket: Socket): boolean {
  // Node keeps the socket's in-flight response here (its own clientError fallback reads it too).
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return response?.headersSent === true;
}
