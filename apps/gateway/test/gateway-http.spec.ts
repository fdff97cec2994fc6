import { Body, Controller, Get, Inject, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsOptional, IsString, Matches } from 'class-validator';
import { generateApiKey } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { isolateQueues } from '@pfs/testing';
import { Public } from '../src/auth/public.decorator';
import { createGatewayApp } from '../src/gateway.app';
import { readGatewayConfig } from '../src/gateway.config';
import { GatewayModule } from '../src/gateway.module';
import { GATEWAY_LOGGER } from '../src/gateway.tokens';
import { memoryLogger, type MemoryLogger } from './support/in-memory/memory-logger';

isolateQueues('gateway-http');

/*
 * The gateway in this process on its real Fastify stack, with no service consuming this file's
 * queues: what it answers by itself (errors, validation, request ids, readiness, fast 503s).
 * A probe controller stands in for routes that later issues add (a JSON body, a crash).
 */

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

class ProbeBody {
  @IsString({ message: 'must be a string' })
  name!: string;

  @IsOptional()
  @Matches(/^[0-9]+(\.[0-9]+)?$/, { message: 'must be a decimal string' })
  amount?: string;
}

@Public()
@Controller('v1/probe')
class ProbeController {
  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: Logger) {}

  @Post()
  echo(@Body() body: ProbeBody): ProbeBody {
    this.logger.info({ probe: body.name }, 'probe handled');
    return body;
  }

  @Get('crash')
  crash(): never {
    throw new Error('relation "ledger.accounts" does not exist: SELECT id, secret FROM ledger.accounts');
  }
}

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  json(): unknown;
}

interface Call {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

describe('gateway over HTTP (in process, no services running)', () => {
  let app: NestFastifyApplication;
  let bus: CommandBus;
  let logs: MemoryLogger;
  let baseUrl: string;

  // Over a real socket, not app.inject: body parsing must run on the socket's own async context.
  const call = async ({ method, url, headers = {}, payload }: Call): Promise<Answer> => {
    const sent = { ...headers };
    let body: string | undefined;
    if (typeof payload === 'string') body = payload;
    else if (payload !== undefined) {
      body = JSON.stringify(payload);
      sent['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${url}`, { method, headers: sent, body });
    const text = await response.text();
    return {
      statusCode: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: text,
      json: () => JSON.parse(text) as unknown,
    };
  };

  beforeAll(async () => {
    const config = readGatewayConfig({ ...process.env, BODY_LIMIT_BYTES: '2048', COMMAND_TIMEOUT_MS: '5000' });
    logs = memoryLogger();
    bus = new CommandBus({ redisUrl: config.redisUrl, prefix: config.queuePrefix, timeoutMs: config.commandTimeoutMs, name: 'gateway-test' });
    await bus.start();
    const runtime = { config, logger: logs.logger, bus };

    @Module({ imports: [GatewayModule.forRoot(runtime)], controllers: [ProbeController] })
    class ProbeModule {}

    app = await createGatewayApp(ProbeModule, runtime);
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await bus?.close();
  });

  const expectEnvelope = (response: Answer, status: number, code: string) => {
    expect(response.statusCode).toBe(status);
    const requestId = response.headers['x-request-id'];
    expect(requestId).toMatch(REQUEST_ID);
    const body = JSON.parse(response.body) as { error: { code: string; message: string; requestId: string } };
    expect(body).toEqual({ error: { code, message: expect.any(String), requestId } });
    expect(response.body).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+/);
    return body.error;
  };

  it('answers an unexpected error with a generic 500 and keeps the detail in the log', async () => {
    const response = await call({ method: 'GET', url: '/v1/probe/crash' });
    const error = expectEnvelope(response, 500, 'internal_error');
    expect(error.message).not.toMatch(/relation|SELECT|secret|ledger/);
    const logged = logs.lines().find((line) => line.msg === 'unhandled error' && line.requestId === error.requestId);
    expect(JSON.stringify(logged)).toContain('SELECT id, secret');
  });

  it('rejects malformed JSON, a wrong content type and a body over the limit with 400 invalid_request', async () => {
    const malformed = await call({ method: 'POST', url: '/v1/probe', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(expectEnvelope(malformed, 400, 'invalid_request').message).toMatch(/not valid JSON/);

    const wrongType = await call({ method: 'POST', url: '/v1/probe', headers: { 'content-type': 'text/csv' }, payload: 'name\nx' });
    expect(expectEnvelope(wrongType, 400, 'invalid_request').message).toMatch(/Content-Type/);

    const large = await call({
      method: 'POST',
      url: '/v1/probe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(4096) }),
    });
    expect(expectEnvelope(large, 400, 'invalid_request').message).toMatch(/too large/);
  });

  it('names the offending field in validation messages and rejects unknown fields', async () => {
    const invalid = await call({ method: 'POST', url: '/v1/probe', payload: { name: 'a', amount: '1e5' } });
    expect(expectEnvelope(invalid, 400, 'invalid_request').message).toBe('amount: must be a decimal string');

    const unknown = await call({ method: 'POST', url: '/v1/probe', payload: { name: 'a', nmae: 'b' } });
    expect(expectEnvelope(unknown, 400, 'invalid_request').message).toBe('nmae: is not a recognised parameter');

    const ok = await call({ method: 'POST', url: '/v1/probe', payload: { name: 'a', amount: '1.50' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ name: 'a', amount: '1.50' });
  });

  it('keeps the request id in the logging context after the body is parsed, and logs one access line per request', async () => {
    // The body arrives in two packets, after the headers, so it is parsed in a later tick.
    const chunks = ['{"name":', '"context-probe"}'];
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        const chunk = chunks.shift();
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    const response = await fetch(`${baseUrl}/v1/probe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    const requestId = response.headers.get('x-request-id');
    const lines = logs.lines().filter((line) => line.requestId === requestId);
    expect(lines.find((line) => line.msg === 'probe handled')).toBeDefined();
    const access = lines.filter((line) => line.msg === 'request completed');
    expect(access).toEqual([
      expect.objectContaining({ method: 'POST', route: '/v1/probe', status: 201, durationMs: expect.any(Number), requestId }),
    ]);
  });

  it('answers unknown routes with the not_found envelope, whatever the body', async () => {
    expectEnvelope(await call({ method: 'GET', url: '/v1/nothing-here' }), 404, 'not_found');
    expectEnvelope(await call({ method: 'DELETE', url: '/v1/accounts' }), 404, 'not_found');
    const badBody = await call({ method: 'POST', url: '/v2/x', headers: { 'content-type': 'application/json' }, payload: '{' });
    expectEnvelope(badBody, 404, 'not_found');
    // Rejected by the router itself, before any hook: still the envelope and a request id.
    expectEnvelope(await call({ method: 'GET', url: `/v1/accounts/${'x'.repeat(600)}` }), 404, 'not_found');
  });

  it('answers a URL that cannot be decoded with 400 invalid_request', async () => {
    expect(expectEnvelope(await call({ method: 'GET', url: '/v1/%E0%A4%A' }), 400, 'invalid_request').message).toBe('The request URL is malformed.');
  });

  it('gives every response its own request id, successes and documentation included', async () => {
    const ids = new Set<string>();
    for (const url of ['/healthz', '/openapi.json', '/docs', '/v1/assets', '/nope']) {
      const response = await call({ method: 'GET', url });
      expect(response.headers['x-request-id']).toMatch(REQUEST_ID);
      ids.add(String(response.headers['x-request-id']));
    }
    expect(ids.size).toBe(5);
  });

  it('tells the authentication errors apart before asking any service', async () => {
    expectEnvelope(await call({ method: 'GET', url: '/v1/accounts' }), 401, 'missing_api_key');
    for (const authorization of ['', 'Bearer', 'Bearer garbage', 'Basic dXNlcjpwYXNz', `Bearer ${generateApiKey('production')}`, `Bearer  ${generateApiKey('sandbox')}`, `${generateApiKey('sandbox')}`]) {
      expectEnvelope(await call({ method: 'GET', url: '/v1/accounts', headers: { authorization } }), 401, 'invalid_api_key');
    }
  });

  it('fails fast with 503 naming the organization service when no one consumes its queue', async () => {
    const started = Date.now();
    const response = await call({ method: 'GET', url: '/v1/assets', headers: { authorization: `Bearer ${generateApiKey('sandbox')}` } });
    // Fast means without waiting out the command timeout (5 s here), however busy the machine.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(expectEnvelope(response, 503, 'internal_error').message).toMatch(/organization service/);
  });

  it('is alive but not ready without its services, and says which checks failed', async () => {
    expect((await call({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const started = Date.now();
    const ready = await call({ method: 'GET', url: '/readyz' });
    // Within the Kubernetes probe's timeout (timeoutSeconds: 3), the bound that matters.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(ready.statusCode).toBe(503);
    const report = ready.json() as { status: string; checks: Record<string, string> };
    expect(report.status).toBe('unavailable');
    expect(report.checks.redis).toBe('ok');
    for (const service of ['organization', 'ledger', 'quote', 'beneficiary', 'webhook-delivery', 'webhook-delivery-worker']) {
      expect(report.checks[service]).toMatch(new RegExp(`${service} service`));
    }
    // The load balancer's probe asks only what this process needs.
    const self = await call({ method: 'GET', url: '/readyz?scope=gateway' });
    expect({ status: self.statusCode, body: self.json() }).toEqual({ status: 200, body: { status: 'ok', checks: { redis: 'ok' } } });
    expect((await call({ method: 'GET', url: '/readyz?scope=all' })).statusCode).toBe(503);
    expectEnvelope(await call({ method: 'GET', url: '/readyz?scope=everything' }), 400, 'invalid_request');
  });
});
