import { randomBytes, randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey, newId } from '@pfs/contracts';
import { APPS, type RunningStack } from '@pfs/devstack';
import { readPlatformConfig } from '@pfs/platform';
import { eventually, isolateQueues } from '@pfs/testing';
import { send } from '../support/http-client';
import { REQUEST_ID, startE2eStack, type E2eStack } from '../e2e/support/e2e-stack';
import { OtlpCollector, type CollectedSpan } from '../e2e/support/otlp-collector';
import { WebhookReceiver } from '../e2e/support/webhook-receiver';

const queuePrefix = isolateQueues('gw-e2e-observe');

/*
 * Observability of the whole stack as real processes: an end-to-end flow at
 * LOG_LEVEL=debug, then every line every app wrote is scanned for credentials and checked for
 * shape, one request is followed across services by its requestId, each app's /metrics is
 * read, and one faucet call is followed as one trace, exported by every app to a local OTLP
 * collector, from the gateway to the webhook receiver. The stack has a database of its own, so its delivery worker's counters see no other
 * file's deliveries.
 */

interface Answer {
  status: number;
  requestId: string | null;
  text: string;
}

interface LogLine {
  level: unknown;
  time: unknown;
  service: unknown;
  msg: unknown;
  requestId?: unknown;
  [key: string]: unknown;
}

/** The value of one sample line, e.g. `queue_jobs{queue="x",state="waiting"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every value under a key of this name, at any depth of a parsed log line. */
function valuesOf(value: unknown, key: string): unknown[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, inner]) => [...(name === key ? [inner] : []), ...valuesOf(inner, key)]);
}

describe('observability end to end: logs and metrics of every app', () => {
  let e2e: E2eStack;
  let stack: RunningStack;
  let baseUrl: string;
  // Every credential the flow uses; none may appear in any log line.
  const secrets: string[] = [];
  let traced: string;
  let organizationId: string;
  let bearer: string;

  const cli = <T>(...args: string[]): Promise<T> => e2e.cli<T>(...args);
  // Through the shared client, so every answer of the flow is also held to the OpenAPI document.
  const get = async (path: string, authorization?: string): Promise<Answer> => {
    const answer = await send(baseUrl, path, { headers: authorization ? { authorization } : {} });
    return { status: answer.status, requestId: answer.headers.get('x-request-id'), text: answer.text };
  };
  const outputOf = (app: string): string[] => stack.apps.get(app)?.output ?? [];
  const collector = new OtlpCollector();

  beforeAll(async () => {
    await collector.start();
    e2e = await startE2eStack(queuePrefix, {
      LOG_LEVEL: 'debug',
      // Tracing on, exported in batches every 100 ms; loopback receivers admitted (sandbox only).
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    });
    stack = e2e.stack;
    baseUrl = e2e.baseUrl;
    const pepper = readPlatformConfig(e2e.env).apiKeyPepper;

    // The flow: an organization from the CLI, its accounts, a second key used then revoked, a
    // malformed key, an unknown key, a 404, an unknown route.
    const org = await cli<{ organizationId: string; accountId: string; apiKey: string }>(
      'org:create', '--name', `observed ${randomBytes(4).toString('hex')}`, '--approved',
    );
    bearer = `Bearer ${org.apiKey}`;
    organizationId = org.organizationId;
    await eventually(async () => ((await get(`/v1/accounts/${org.accountId}`, bearer)).status === 200 ? true : undefined), 10000, 100);
    expect((await get('/v1/accounts', bearer)).status).toBe(200);
    const account = await get(`/v1/accounts/${org.accountId}`, bearer);
    expect(account.status).toBe(200);
    expect(account.requestId).toMatch(REQUEST_ID);
    traced = account.requestId ?? '';

    const second = await cli<{ keyId: string; apiKey: string }>('key:create', '--org', org.organizationId);
    expect((await get('/v1/assets', `Bearer ${second.apiKey}`)).status).toBe(200);
    await cli('key:revoke', '--key', second.keyId);
    await eventually(async () => ((await get('/v1/assets', `Bearer ${second.apiKey}`)).status === 401 ? true : undefined), 5000, 100);

    const unknown = generateApiKey('sandbox');
    expect((await get('/v1/assets', `Bearer ${unknown}`)).status).toBe(401);
    expect((await get('/v1/assets', 'Bearer sk_test_malformed')).status).toBe(401);
    expect((await get('/v1/assets', `Basic ${Buffer.from(`user:${org.apiKey}`).toString('base64')}`)).status).toBe(401);
    expect((await get(`/v1/accounts/${newId('account')}`, bearer)).status).toBe(404);
    expect((await get('/v1/no-such-route', bearer)).status).toBe(404);

    for (const key of [org.apiKey, second.apiKey, unknown]) secrets.push(key, hashApiKey(key, pepper));
    secrets.push(Buffer.from(`user:${org.apiKey}`).toString('base64'));

    // The ledger's line for the traced request is written after its reply: wait for it.
    await eventually(async () => (outputOf('ledger-service').some((line) => line.includes(traced)) ? true : undefined), 5000, 100);
  }, 180000);

  afterAll(async () => {
    await e2e?.stop();
    await collector.stop();
  }, 60000);

  describe('/metrics', () => {
    it('is served on the gateway admin port only, without authentication, by route template, and is not in the API document', async () => {
      const adminUrl = stack.apps.get('gateway')?.adminUrl;
      expect(adminUrl).not.toBe(baseUrl);
      const response = await fetch(`${adminUrl}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await response.text();

      const http = (method: string, route: string, status: number) =>
        sample(text, `http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`) ?? 0;
      expect(http('GET', '/v1/accounts/:accountId', 200)).toBeGreaterThanOrEqual(2);
      // The 404 of the flow, and any while the new account was being opened.
      expect(http('GET', '/v1/accounts/:accountId', 404)).toBeGreaterThanOrEqual(1);
      expect(http('GET', '/v1/accounts', 200)).toBe(1);
      expect(http('GET', '/v1/assets', 401)).toBeGreaterThanOrEqual(3);
      expect(http('GET', '(unmatched)', 404)).toBe(1);
      // Never a concrete id or path as a label: one series per route, not per resource.
      const routes = [...text.matchAll(/route="([^"]*)"/g)].map((match) => match[1] ?? '');
      expect(routes.filter((route) => /(acc|org|key)_[0-9a-f]{8}|no-such-route/.test(route))).toEqual([]);

      const roundTrip = (queue: string, command: string, outcome: string) =>
        sample(text, `command_round_trip_seconds_count{queue="${queue}",command="${command}",outcome="${outcome}"}`) ?? 0;
      expect(roundTrip('ledger-queries', 'accounts.get', 'ok')).toBeGreaterThanOrEqual(2);
      expect(roundTrip('ledger-queries', 'accounts.get', 'domain_error')).toBe(http('GET', '/v1/accounts/:accountId', 404));
      expect(roundTrip('organization-queries', 'api-keys.authenticate', 'ok')).toBeGreaterThanOrEqual(2);
      expect(roundTrip('organization-queries', 'api-keys.authenticate', 'domain_error')).toBeGreaterThanOrEqual(2);
      expect(roundTrip('ledger-queries', 'system.ping', 'ok')).toBeGreaterThanOrEqual(1);
      expect(text).toContain('# TYPE process_resident_memory_bytes gauge');

      const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(document.paths)).not.toContain('/metrics');
      // The public port answers it like any unknown route: nothing of the process is readable there.
      const onPublicPort = await send(baseUrl, '/metrics');
      expect({ status: onPublicPort.status, code: onPublicPort.json<{ error: { code: string } }>().error.code }).toEqual({ status: 404, code: 'not_found' });
      expect(onPublicPort.text).not.toContain('http_request_duration_seconds');
    });

    it('answers the probes on the gateway admin port: alive, and ready when Redis answers', async () => {
      const adminUrl = stack.apps.get('gateway')?.adminUrl;
      expect(await (await fetch(`${adminUrl}/healthz`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${adminUrl}/readyz`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ok', checks: { redis: 'ok' } } });
    });

    it.each(APPS.filter((app) => app.name !== 'gateway').map((app) => [app.name]))(
      'is served on the admin port of %s: its queues, job outcomes, outbox lag and process metrics',
      async (name) => {
        const app = stack.apps.get(name);
        const response = await fetch(`${app?.url}/metrics`);
        expect(response.status).toBe(200);
        const text = await response.text();
        const service = name.replace(/-service$/, '');
        for (const queue of [`${service}-commands`, `${service}-queries`]) {
          for (const state of ['waiting', 'active', 'delayed', 'failed']) expect(sample(text, `queue_jobs{queue="${queue}",state="${state}"}`)).toBe(0);
        }
        expect(sample(text, `queue_jobs_processed_total{queue="${service}-queries",job="system.ping",outcome="ok"}`)).toBeGreaterThanOrEqual(1);
        expect(text).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
        expect(text).toContain('# TYPE outbox_oldest_unpublished_age_seconds gauge');
        // Only the delivery worker makes webhook attempts; it exports the counter before the first.
        if (name === 'webhook-delivery-worker') {
          for (const outcome of ['success', 'failure', 'timeout']) {
            expect(sample(text, `webhook_delivery_attempts_total{outcome="${outcome}"}`)).toBe(0);
          }
        } else {
          expect(text).not.toContain('webhook_delivery_attempts_total');
        }
      },
    );

    it('shows the ledger handling the events and commands of the flow', async () => {
      const text = await (await fetch(`${stack.apps.get('ledger-service')?.url}/metrics`)).text();
      expect(sample(text, 'queue_jobs_processed_total{queue="ledger-events",job="organization.created",outcome="ok"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'queue_jobs_processed_total{queue="ledger-queries",job="accounts.get",outcome="ok"}')).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'queue_jobs_processed_total{queue="ledger-queries",job="accounts.get",outcome="domain_error"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'outbox_oldest_unpublished_age_seconds{schema="ledger"}')).toBe(0);
    });

    it('counts the events the organization service itself publishes from its outbox', async () => {
      // The operator CLI publishes the events it writes; a verification change is written by the service.
      const published = async () =>
        sample(await (await fetch(`${stack.apps.get('organization-service')?.url}/metrics`)).text(), 'outbox_events_published_total{schema="organization"}') ?? 0;
      const before = await published();
      const answer = await send(baseUrl, `/v1/sandbox/organizations/${organizationId}/verification`, {
        method: 'POST',
        headers: { authorization: bearer, 'idempotency-key': randomUUID() },
        body: { status: 'ON_HOLD', reason: 'Proof of address is older than three months.' },
      });
      expect(answer.status).toBe(200);
      // organization.verification.updated and organization.standing.updated.
      await eventually(async () => ((await published()) >= before + 2 ? true : undefined), 10000, 100);
    });
  });

  describe('traces', () => {
    const receiver = new WebhookReceiver();
    let requestId: string;
    let endpointId: string;
    let accountId: string;
    let trace: CollectedSpan[];
    let root: CollectedSpan;

    /** The span and its ancestors up to the root, as `service: name`. */
    const ancestry = (span: CollectedSpan): string[] => {
      const chain: string[] = [];
      for (let at: CollectedSpan | undefined = span; at; at = trace.find((parent) => parent.spanId === at?.parentSpanId)) chain.push(`${at.service}: ${at.name}`);
      return chain;
    };
    const only = (predicate: (span: CollectedSpan) => boolean): CollectedSpan => {
      const found = trace.filter(predicate);
      expect(found).toHaveLength(1);
      return found[0] as CollectedSpan;
    };

    beforeAll(async () => {
      await receiver.start();
      const org = await cli<{ organizationId: string; accountId: string; apiKey: string }>('org:create', '--name', `traced ${randomBytes(4).toString('hex')}`, '--approved');
      accountId = org.accountId;
      const post = (path: string, body: unknown) =>
        send(baseUrl, path, { method: 'POST', headers: { authorization: `Bearer ${org.apiKey}`, 'idempotency-key': randomUUID() }, body });
      await eventually(async () => ((await get(`/v1/accounts/${org.accountId}`, `Bearer ${org.apiKey}`)).status === 200 ? true : undefined), 10000, 100);
      const created = await post('/v1/webhooks/endpoints', { url: receiver.url(), eventTypes: ['transaction.status.updated'] });
      expect(created.status).toBe(201);
      endpointId = created.json<{ id: string }>().id;
      expect((await post('/v1/funding-methods', { asset: 'USDC', accountId: org.accountId })).status).toBe(200);

      const credit = await post('/v1/transactions/faucet', { accountId: org.accountId, asset: 'USDC', amount: '1', chainName: 'ETHEREUM_SEPOLIA' });
      expect(credit.status).toBe(200);
      requestId = credit.headers.get('x-request-id') ?? '';
      await eventually(async () => (receiver.received.length ? true : undefined), 20000, 50);
      // The apps export every 100 ms, each span once it ends (a parent often after its children):
      // the trace is in once the worker's HTTP call is, with every span's parent.
      root = await eventually(async () => collector.spans.find((span) => span.kind === 2 && span.attributes['pfs.request_id'] === requestId), 20000, 100);
      trace = await eventually(async () => {
        const spans = collector.trace(root.traceId);
        const ids = new Set(spans.map((span) => span.spanId));
        const complete = spans.every((span) => span.parentSpanId === null || ids.has(span.parentSpanId));
        return complete && spans.some((span) => span.service === 'webhook-delivery-worker' && span.name === 'POST') ? spans : undefined;
      }, 20000, 100);
    }, 60000);

    afterAll(async () => {
      await receiver.stop();
    });

    it('make the faucet call one trace, rooted at the gateway, in which every span hangs under another', () => {
      expect(root).toMatchObject({ service: 'gateway', name: 'POST /v1/transactions/faucet', parentSpanId: null });
      expect(root.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/transactions/faucet', 'http.response.status_code': 200 });
      expect(trace.filter((span) => span.parentSpanId === null)).toEqual([root]);
      const ids = new Set(trace.map((span) => span.spanId));
      expect(trace.filter((span) => span.parentSpanId !== null && !ids.has(span.parentSpanId))).toEqual([]);
      const services = [...new Set(trace.map((span) => span.service))];
      expect(services).toEqual(expect.arrayContaining(['gateway', 'ledger-service', 'webhook-delivery-service', 'webhook-delivery-worker']));
      // The organization service too when the ledger's copy of the new organization's standing had
      // not arrived yet and the ledger asked the owner: part of the same trace then.
      expect(services.filter((service) => !['gateway', 'ledger-service', 'webhook-delivery-service', 'webhook-delivery-worker', 'organization-service'].includes(service))).toEqual([]);
    });

    it('follow the command, the relay, the fan-out and the delivery to the receiver\'s HTTP call', () => {
      const call = only((span) => span.service === 'webhook-delivery-worker' && span.name === 'POST');
      expect(ancestry(call)).toEqual([
        'webhook-delivery-worker: POST',
        'webhook-delivery-worker: webhook delivery attempt',
        'webhook-delivery-worker: webhook-message.created process',
        'webhook-delivery-service: webhook-message.created publish',
        'webhook-delivery-service: transaction.status.updated process',
        'ledger-service: transaction.status.updated publish',
        'ledger-service: faucet.credit',
        'gateway: ledger faucet.credit',
        'gateway: POST /v1/transactions/faucet',
      ]);
      expect(call).toMatchObject({ kind: 3, attributes: { 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'http.response.status_code': 200 } });
      const attempt = only((span) => span.name === 'webhook delivery attempt');
      expect(attempt.attributes).toMatchObject({ 'pfs.webhook.endpoint_id': endpointId, 'pfs.webhook.attempt': 1, 'pfs.webhook.outcome': 'succeeded', 'http.response.status_code': 200 });
      // The receiver got the HTTP call's own context: its spans, if it traces, join this trace.
      expect(receiver.received[0]?.headers.traceparent).toBe(`00-${root.traceId}-${call.spanId}-01`);
    });

    it("include each service's SQL, under the span that ran it, without the statements' values", () => {
      const credit = only((span) => span.service === 'ledger-service' && span.name === 'faucet.credit');
      const statements = trace.filter((span) => span.parentSpanId === credit.spanId && span.attributes['db.system.name'] === 'postgresql');
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) expect(String(statement.attributes['db.query.text'])).toMatch(/\$1|SELECT|INSERT|WITH/i);
      // Values travel as parameters: the account id the credit wrote is in no span.
      expect(trace.filter((span) => JSON.stringify(span.attributes).includes(accountId))).toEqual([]);
      for (const service of ['webhook-delivery-service', 'webhook-delivery-worker']) {
        expect(trace.some((span) => span.service === service && span.attributes['db.system.name'] === 'postgresql')).toBe(true);
      }
    });

    it('are named in the log lines: the same trace and span ids next to the request id', async () => {
      const line = await eventually(async () =>
        outputOf('gateway')
          .map((raw) => JSON.parse(raw) as LogLine)
          .find((parsed) => parsed.requestId === requestId && parsed.msg === 'request completed'),
      );
      expect(line).toMatchObject({ traceId: root.traceId, spanId: root.spanId });
      const attempt = only((span) => span.name === 'webhook delivery attempt');
      const attemptLine = outputOf('webhook-delivery-worker')
        .map((raw) => JSON.parse(raw) as LogLine)
        .find((parsed) => parsed.msg === 'webhook attempt made' && parsed.endpointId === endpointId);
      expect(attemptLine).toMatchObject({ traceId: root.traceId, spanId: attempt.spanId });
    });
  });

  describe('logs', () => {
    // Read after the stack has stopped, so shutdown lines are scanned too.
    let lines: Map<string, string[]>;

    beforeAll(async () => {
      await stack.stop();
      lines = new Map([...stack.apps].map(([name, app]) => [name, app.output]));
    }, 60000);

    it('are one JSON object per line with level, time, service and msg, from every app', () => {
      for (const [name, output] of lines) {
        expect(output.length).toBeGreaterThan(0);
        for (const raw of output) {
          let parsed: LogLine;
          try {
            parsed = JSON.parse(raw) as LogLine;
          } catch {
            throw new Error(`${name} wrote a line that is not JSON: ${raw.slice(0, 200)}`);
          }
          expect({ name, level: typeof parsed.level, time: typeof parsed.time, service: typeof parsed.service, msg: typeof parsed.msg }).toEqual({
            name,
            level: 'string',
            time: 'string',
            service: 'string',
            msg: 'string',
          });
          expect(Number.isNaN(Date.parse(String(parsed.time)))).toBe(false);
        }
      }
    });

    it('contain no API key, key hash, Authorization value or full account number', () => {
      const all = [...lines.values()].flat();
      expect(all.length).toBeGreaterThan(50); // debug level: the flow logged plenty
      expect(all.filter((line) => /sk_(test|live)_/.test(line))).toEqual([]);
      expect(all.filter((line) => /bearer|basic /i.test(line))).toEqual([]);
      for (const secret of secrets) expect(all.filter((line) => line.includes(secret))).toEqual([]);
      const parsed = all.map((line) => JSON.parse(line) as LogLine);
      for (const key of ['authorization', 'apiKey', 'keyHash', 'accountNumber']) {
        expect(parsed.flatMap((line) => valuesOf(line, key)).filter((value) => value !== '[redacted]')).toEqual([]);
      }
    });

    it("find one request's lines in the gateway and in the ledger by its requestId", () => {
      const withId = (app: string) =>
        (lines.get(app) ?? []).map((line) => JSON.parse(line) as LogLine).filter((line) => line.requestId === traced);
      const gateway = withId('gateway');
      const ledger = withId('ledger-service');
      expect(gateway.map((line) => line.msg)).toContain('request completed');
      expect(gateway.every((line) => line.service === 'gateway')).toBe(true);
      expect(ledger.map((line) => line.msg)).toContain('command handled');
      expect(ledger.find((line) => line.msg === 'command handled')).toMatchObject({ service: 'ledger', command: 'accounts.get', outcome: 'ok' });
    });
  });
});
