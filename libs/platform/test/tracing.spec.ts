import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { Writable } from 'node:stream';
import { createLogger } from '../src/logger';
import {
  currentTraceCarrier,
  currentTraceIds,
  inSpan,
  runInTraceContext,
  startSpan,
  startTracing,
  stopTracing,
  traceHeaders,
  tracingEnabled,
  tracingRequested,
} from '../src/tracing';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** The log lines a logger writes, parsed. */
function capturedLogger(): { lines: Array<Record<string, unknown>>; logger: ReturnType<typeof createLogger> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('traced', 'info', sink) };
}

describe('tracing', () => {
  it('is asked for by an OTLP endpoint only, and OTEL_SDK_DISABLED wins', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  describe('off (the default)', () => {
    it('starts nothing, carries nothing and just runs the work', async () => {
      expect(startTracing({ service: 'test' })).toBe(false);
      expect(tracingEnabled()).toBe(false);
      expect(startSpan('anything')).toBeUndefined();
      expect(await inSpan('anything', {}, async () => currentTraceCarrier())).toBeUndefined();
      expect(traceHeaders()).toEqual({});
      expect(runInTraceContext(undefined, () => 42)).toBe(42);
      const { lines, logger } = capturedLogger();
      await inSpan('anything', {}, async () => logger.info('inside'));
      expect(lines[0]).not.toHaveProperty('traceId');
    });
  });

  describe('on', () => {
    const saved = { ...process.env };

    beforeAll(async () => {
      // Nothing listens there: what is exported is checked end to end, with the apps' collector.
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
      expect(startTracing({ service: 'platform-test' })).toBe(true);
    });

    afterAll(async () => {
      await stopTracing();
      process.env = saved;
    });

    it('carries the active span across a queue: the far side continues the same trace under it', async () => {
      const sent = await inSpan('send', { kind: 'client' }, async () => ({ carrier: currentTraceCarrier(), ids: currentTraceIds() }));
      const [, traceId, spanId] = TRACEPARENT.exec(sent.carrier?.traceparent ?? '') ?? [];
      expect({ traceId, spanId }).toEqual(sent.ids);
      const received = await inSpan('process', { kind: 'consumer', parent: sent.carrier, requireParent: true }, async () => currentTraceIds());
      expect(received?.traceId).toBe(traceId);
      expect(received?.spanId).not.toBe(spanId);
    });

    it('starts no span where one is required to hang under and there is none', async () => {
      expect(startSpan('orphan', { requireParent: true })).toBeUndefined();
      expect(startSpan('orphan', { requireParent: true, parent: null })).toBeUndefined();
      expect(await inSpan('root', {}, async () => startSpan('child', { requireParent: true }) !== undefined)).toBe(true);
    });

    it("enters a started span's context later, in another async flow", async () => {
      const started = startSpan('request');
      const captured = started?.context;
      const ids = runInTraceContext(captured, () => currentTraceIds());
      expect(ids).toEqual({ traceId: started?.span.spanContext().traceId, spanId: started?.span.spanContext().spanId });
      expect(currentTraceIds()).toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
      expect(runInTraceContext(captured, () => currentTraceIds())).toEqual(ids);
      expect(runInTraceContext(captured, () => traceHeaders()).traceparent).toMatch(TRACEPARENT);
      started?.span.end();
    });

    it('names the span in every log line written inside it', async () => {
      const { lines, logger } = capturedLogger();
      const ids = await inSpan('logged', {}, async () => {
        logger.info('inside');
        return currentTraceIds();
      });
      logger.info('outside');
      expect(lines[0]).toMatchObject({ msg: 'inside', traceId: ids?.traceId, spanId: ids?.spanId });
      expect(lines[1]).not.toHaveProperty('traceId');
    });

    it('rethrows what fails inside a span and marks the span failed, with no stack', async () => {
      let failed: ReadableSpan | undefined;
      await expect(
        inSpan('failing', {}, async () => {
          failed = trace.getActiveSpan() as unknown as ReadableSpan;
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'refused' });
      expect(failed?.attributes).toEqual({ 'error.type': 'Error' });
      expect(failed?.ended).toBe(true);
    });
  });
});
