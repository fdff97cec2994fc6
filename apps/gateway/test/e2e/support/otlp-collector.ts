import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as a collector receives it, flattened: the app that exported it and its attributes as plain values. */
export interface CollectedSpan {
  service: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpKeyValue[]; status?: { code?: number } }>;
    }>;
  }>;
}

const plain = (value: OtlpValue): string | number | boolean =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? ''));

const attributesOf = (list: OtlpKeyValue[] = []): Record<string, string | number | boolean> =>
  Object.fromEntries(list.map((entry) => [entry.key, plain(entry.value)]));

/**
 * What an operator's OpenTelemetry collector would be: a real OTLP/HTTP endpoint on 127.0.0.1
 * that keeps every span the apps export (JSON encoding, the exporter's default) in memory.
 * Point `OTEL_EXPORTER_OTLP_ENDPOINT` at `url`.
 */
export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces' || !String(request.headers['content-type']).startsWith('application/json')) {
          response.writeHead(404).end();
          return;
        }
        this.accept(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  /** Every span of one trace. */
  trace(traceId: string): CollectedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private accept(body: OtlpExport): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            name: span.name,
            kind: span.kind,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || null,
            attributes: attributesOf(span.attributes),
            status: span.status?.code ?? 0,
          });
        }
      }
    }
  }
}
