import { Writable } from 'node:stream';
import pino from 'pino';
import { currentRequestId, type Logger } from '@pfs/platform';

export interface MemoryLogger {
  logger: Logger;
  /** Every line written so far, parsed. */
  lines(): Array<Record<string, unknown>>;
}

/** A pino logger shaped like the platform's (request id from the logging context) that writes to memory. */
export function memoryLogger(): MemoryLogger {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      raw.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = pino(
    {
      level: 'debug',
      base: { service: 'gateway' },
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    sink,
  );
  return { logger, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
