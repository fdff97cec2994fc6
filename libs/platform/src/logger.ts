import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { currentTraceIds } from './tracing';

/** The request context that follows a request across awaits and, via job metadata, queues. */
export interface RequestContext {
  requestId: string;
  /** Epoch ms by which the sender of a command stops waiting; absent outside commands. */
  deadline?: number;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

export function runWithRequestId<T>(requestId: string, work: () => T, deadline?: number): T {
  return requestContext.run(deadline === undefined ? { requestId } : { requestId, deadline }, work);
}

export function currentDeadline(): number | undefined {
  return requestContext.getStore()?.deadline;
}

// Never log credentials: these paths are censored wherever they appear in a log object.
const REDACT = [
  'authorization',
  'apiKey',
  'keyHash',
  'secret',
  'password',
  'accountNumber',
  // An IBAN embeds the full account number.
  'iban',
  'taxId',
  '*.authorization',
  '*.apiKey',
  '*.keyHash',
  '*.secret',
  '*.accountNumber',
  '*.iban',
  '*.taxId',
  'headers.authorization',
  'req.headers.authorization',
];

export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    redact: { paths: REDACT, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const requestId = currentRequestId();
      // With tracing on, a line also names the span it was written in: logs and traces join up.
      const ids = currentTraceIds();
      if (ids) return requestId ? { requestId, traceId: ids.traceId, spanId: ids.spanId } : { traceId: ids.traceId, spanId: ids.spanId };
      return requestId ? { requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };

/** Log lines to standard error, written at once: for a command-line tool whose standard output is its answer. */
export function standardErrorDestination(): pino.DestinationStream {
  return pino.destination({ dest: 2, sync: true });
}
