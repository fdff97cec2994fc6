import type { Logger } from 'pino';
import { stopTracing } from './tracing';

const FLUSH_BOUND_MS = 1000;

export interface ShutdownOptions {
  logger: Logger;
  /**
   * The drain: stop taking work, finish what is in flight, close connections. Resolves when the
   * process may exit.
   */
  stop: () => Promise<void>;
  /**
   * Hard limit (`SHUTDOWN_TIMEOUT_MS`, default 25 s): below Kubernetes' 30 s grace period, so the
   * process exits on its own, with a log line saying why, rather than being SIGKILLed silently.
   */
  timeoutMs: number;
  /** What is logged when the drain starts. */
  message?: string;
  signals?: readonly NodeJS.Signals[];
  /** Seams for tests; the real process by default. */
  exit?: (code: number) => void;
  events?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/**
 * Installs the signal handlers of an app: the first SIGTERM/SIGINT drains (`stop`) and exits 0,
 * or 1 if the drain fails or outlasts `timeoutMs`; a second signal exits 1 at once (an operator
 * pressing Ctrl-C twice). Returns the trigger (tests, or a caller shutting down on its own) and
 * a function removing the handlers.
 */
export function handleShutdownSignals(options: ShutdownOptions): { shutdown: (reason: string) => void; remove: () => void } {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const events = options.events ?? process;
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const { logger } = options;
  let started = false;
  let finished = false;

  const finish = (code: number) => {
    if (finished) return;
    finished = true;
    // The log's writes are asynchronous: let those still in flight land, in order, before the
    // process ends (a last line could otherwise be lost, or overtaken by one written before it).
    // A destination that never answers delays the exit by a second at most.
    let exited = false;
    const exitOnce = () => {
      if (exited) return;
      exited = true;
      clearTimeout(bound);
      exit(code);
    };
    const bound = setTimeout(exitOnce, FLUSH_BOUND_MS);
    bound.unref();
    logger.flush(exitOnce);
  };

  const shutdown = (reason: string) => {
    if (started) {
      logger.warn({ signal: reason }, 'second signal while shutting down: exiting now');
      finish(1);
      return;
    }
    started = true;
    const began = Date.now();
    logger.info({ signal: reason, timeoutMs: options.timeoutMs }, options.message ?? 'shutting down');
    // Unref'd: it must not be what keeps a drained process alive.
    const timer = setTimeout(() => {
      logger.error({ timeoutMs: options.timeoutMs }, 'shutdown timed out: exiting with work still open');
      finish(1);
    }, options.timeoutMs);
    timer.unref();
    // The spans of the drain itself are exported too, before the process exits.
    const drained = options.stop().then(() => stopTracing());
    drained.then(
      () => {
        clearTimeout(timer);
        logger.info({ durationMs: Date.now() - began }, 'stopped');
        finish(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
        finish(1);
      },
    );
  };

  const onSignal = (signal: NodeJS.Signals) => shutdown(signal);
  for (const signal of signals) events.on(signal, onSignal);
  return {
    shutdown,
    remove: () => {
      for (const signal of signals) events.off(signal, onSignal);
    },
  };
}
