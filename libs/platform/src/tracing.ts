import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { TraceCarrier } from '@pfs/contracts';

/**
 * OpenTelemetry traces, off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) names a collector. Off, every helper here returns at once
 * and the SDK is never loaded: no span objects, no context propagation, no memory.
 *
 * On, each app exports its spans over OTLP/HTTP in batches (the SDK reads the standard
 * `OTEL_*` variables: `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_TRACES_SAMPLER`…), and
 * the `pg` driver's statements become spans of whatever span runs them. The trace context crosses
 * the queues in the command, event and delivery envelopes (`TraceCarrier`), so one HTTP request
 * is one trace from the gateway to the webhook receiver.
 */

export type SpanKindName = 'server' | 'client' | 'producer' | 'consumer' | 'internal';

const KINDS: Record<SpanKindName, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
};

export interface SpanOptions {
  kind?: SpanKindName;
  attributes?: Attributes;
  /**
   * Where the span hangs: a carrier read from a queue, or a context captured earlier. Without it,
   * the span is a child of the active span (or a new trace when there is none).
   */
  parent?: TraceCarrier | TraceContext | null;
  /**
   * Only as part of a trace: no span when the parent carrier is absent or (without one) no span
   * is active. Traces start at the gateway; a probe's ping or an operator's command starts none.
   */
  requireParent?: boolean;
}

/** An opaque trace context, captured in one async flow and entered in another. */
export type TraceContext = Context;

/** A span started here and ended elsewhere (an HTTP request, from its first hook to its last). */
export interface StartedSpan {
  readonly span: Span;
  /** The context in which the span is the active one. */
  readonly context: TraceContext;
}

interface TracingState {
  shutdown: () => Promise<void>;
}

let state: TracingState | undefined;

export interface TracingSettings {
  /** `service.name` of the spans: the app's name, as its Deployment is named. */
  service: string;
}

/** Whether the environment asks for traces: an OTLP endpoint is set and the SDK is not disabled. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  // An empty value is unset, as for the SDK itself (a ConfigMap lists both, empty).
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/**
 * Starts tracing for this process when the environment asks for it; returns whether it did.
 * Call it before anything loads `pg` (an app's first import), so the driver's statements are
 * traced; once per process.
 */
export function startTracing(settings: TracingSettings): boolean {
  // The exporter and the batch processor read the same variables from process.env themselves.
  const env = process.env;
  if (state || !tracingRequested(env)) return Boolean(state);
  // Loaded only when asked for: an app that does not trace never pays for the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.service }),
    // The exporter reads the endpoint, headers and timeout from the standard variables.
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    // Statements become spans only inside a traced unit of work: a sweeper's or relay's poll
    // outside any request would otherwise start a trace of its own every few hundred ms.
    instrumentations: [new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true })],
  });
  state = { shutdown: () => provider.shutdown() };
  return true;
}

/** Whether this process traces (`startTracing` turned it on). */
export function tracingEnabled(): boolean {
  return state !== undefined;
}

/**
 * Exports the spans still buffered and stops (on shutdown, after the drain). A collector that
 * cannot take them costs those spans, never the shutdown.
 */
export async function stopTracing(): Promise<void> {
  const current = state;
  state = undefined;
  await current?.shutdown().catch(() => undefined);
}

const tracer = () => trace.getTracer('pfs');

function parentContext(parent: SpanOptions['parent']): Context {
  if (!parent) return context.active();
  if (isCarrier(parent)) return propagation.extract(ROOT_CONTEXT, parent);
  return parent;
}

function isCarrier(value: TraceCarrier | Context): value is TraceCarrier {
  return typeof (value as TraceCarrier).traceparent === 'string';
}

/** Starts a span that the caller ends; undefined when tracing is off. */
export function startSpan(name: string, options: SpanOptions = {}): StartedSpan | undefined {
  if (!state) return undefined;
  if (options.requireParent && !(options.parent ? options.parent : trace.getSpan(context.active()))) return undefined;
  const parent = parentContext(options.parent);
  const span = tracer().startSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Marks a span failed with the error's name and message (never its stack: spans leave the cluster's logs). */
export function failSpan(span: Span, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  span.setAttribute('error.type', failure.name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
}

/**
 * Runs `work` in a new span, active for everything it awaits, ended when it settles (failed if
 * it throws). With tracing off, just runs `work`.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  const started = startSpan(name, options);
  if (!started) return work();
  return context.with(started.context, async () => {
    try {
      return await work();
    } catch (error) {
      failSpan(started.span, error);
      throw error;
    } finally {
      started.span.end();
    }
  });
}

/** Runs `work` with `captured` as the active trace context (as is when tracing is off or nothing was captured). */
export function runInTraceContext<T>(captured: TraceContext | undefined, work: () => T): T {
  if (!state || !captured) return work();
  return context.with(captured, work);
}

/** The active span's context as a carrier for a queue envelope; undefined when tracing is off or no span is active. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  if (!state || !trace.getSpan(context.active())) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (!carrier.traceparent) return undefined;
  return carrier.tracestate ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : { traceparent: carrier.traceparent };
}

/** The active span's W3C headers for an outgoing HTTP request (`traceparent`, `tracestate`); empty when not tracing. */
export function traceHeaders(): Record<string, string> {
  const carrier = currentTraceCarrier();
  return carrier ? { ...carrier } : {};
}

/** Adds attributes to the active span (an outcome known only at the end); nothing when not tracing. */
export function annotateSpan(attributes: Attributes): void {
  if (!state) return;
  trace.getSpan(context.active())?.setAttributes(attributes);
}

/** The active span's ids, for log lines; undefined when not tracing or no span is active. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!state) return undefined;
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
export type { Span } from '@opentelemetry/api';

/** The empty context: as a span's parent, it starts a new trace whatever is active. */
export const ROOT_TRACE_CONTEXT: TraceContext = ROOT_CONTEXT;
