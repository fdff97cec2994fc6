import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { createLogger, handleShutdownSignals, readPlatformConfig } from '../src';

interface Harness {
  signals: EventEmitter;
  exits: number[];
  lines: Array<Record<string, unknown>>;
  exited: Promise<number>;
}

/** The handler on a fake process: signals are emitted by the test, exit codes recorded. */
function harness(stop: () => Promise<void>, timeoutMs: number): Harness {
  const signals = new EventEmitter();
  const exits: number[] = [];
  const lines: Array<Record<string, unknown>> = [];
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (onExit = resolve));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  handleShutdownSignals({
    logger: createLogger('shutdown-test', 'info', sink),
    stop,
    timeoutMs,
    message: 'shutting down: test',
    exit: (code) => {
      exits.push(code);
      onExit(code);
    },
    events: signals as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
  });
  return { signals, exits, lines, exited };
}

describe('handleShutdownSignals', () => {
  it('drains on SIGTERM and exits 0 once the drain has finished', async () => {
    // The test ends the drain itself, so "not before the drain" holds however busy the machine.
    let finishDrain: () => void = () => undefined;
    let drained = false;
    const h = harness(async () => {
      await new Promise<void>((resolve) => (finishDrain = resolve));
      drained = true;
    }, 5000);
    h.signals.emit('SIGTERM', 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(h.exits).toEqual([]); // not before the drain
    finishDrain();
    expect(await h.exited).toBe(0);
    expect(drained).toBe(true);
    expect(h.lines.map((line) => line.msg)).toEqual(['shutting down: test', 'stopped']);
    expect(h.lines[0]).toMatchObject({ signal: 'SIGTERM', timeoutMs: 5000, service: 'shutdown-test' });
  });

  it('exits only once the log has written what it still held, in order', async () => {
    const written: string[] = [];
    const pending: string[] = [];
    const exits: number[] = [];
    let onExit: () => void = () => undefined;
    const exited = new Promise<void>((resolve) => (onExit = resolve));
    // An asynchronous destination, as pino's own: lines wait in a buffer until flushed.
    const sink = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          pending.push(String((JSON.parse(chunk.toString('utf8')) as { msg: string }).msg));
          done();
        },
      }),
      {
        flush(done: () => void) {
          setTimeout(() => {
            written.push(...pending.splice(0));
            done();
          }, 50);
        },
      },
    );
    const signals = new EventEmitter();
    handleShutdownSignals({
      logger: createLogger('shutdown-test', 'info', sink),
      stop: async () => undefined,
      timeoutMs: 5000,
      exit: (code) => {
        exits.push(code);
        onExit();
      },
      events: signals as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
    });
    signals.emit('SIGTERM', 'SIGTERM');
    await exited;
    expect(exits).toEqual([0]);
    expect(written).toEqual(['shutting down', 'stopped']);
  });

  it('exits 1 at the hard limit when the drain hangs', async () => {
    const started = Date.now();
    const h = harness(() => new Promise<void>(() => undefined), 150);
    h.signals.emit('SIGTERM', 'SIGTERM');
    expect(await h.exited).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(h.lines.map((line) => line.msg)).toEqual(['shutting down: test', 'shutdown timed out: exiting with work still open']);
  });

  it('exits 1 when the drain fails', async () => {
    const h = harness(async () => {
      throw new Error('redis gone');
    }, 5000);
    h.signals.emit('SIGINT', 'SIGINT');
    expect(await h.exited).toBe(1);
    expect(h.lines[1]).toMatchObject({ level: 'error', err: 'redis gone', msg: 'shutdown failed' });
  });

  it('exits 1 at once on a second signal during the drain, and only once', async () => {
    let finishDrain: () => void = () => undefined;
    const h = harness(() => new Promise<void>((resolve) => (finishDrain = resolve)), 5000);
    h.signals.emit('SIGINT', 'SIGINT');
    h.signals.emit('SIGINT', 'SIGINT');
    expect(await h.exited).toBe(1);
    finishDrain();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.exits).toEqual([1]);
  });

  it('reads SHUTDOWN_TIMEOUT_MS, 25 s by default (inside the 30 s Kubernetes grace period)', () => {
    expect(readPlatformConfig({}).shutdownTimeoutMs).toBe(25000);
    expect(readPlatformConfig({ SHUTDOWN_TIMEOUT_MS: '10000' }).shutdownTimeoutMs).toBe(10000);
    expect(() => readPlatformConfig({ SHUTDOWN_TIMEOUT_MS: '0' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });
});
