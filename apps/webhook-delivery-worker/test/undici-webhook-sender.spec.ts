import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostResolver } from '@pfs/platform';
import { RESPONSE_LIMIT_BYTES, retryAfter, UndiciWebhookSender } from '../src/adapters/http/undici-webhook.sender';
import { DEFAULT_DISABLE_RULES } from '../src/domain/endpoint-health';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../src/domain/retry-schedule';
import { EnvDeliverySettings } from '../src/webhook-delivery-worker.settings';

/** A real HTTP server on 127.0.0.1 that counts the connections it accepts and keeps the requests it read. */
interface LocalServer {
  port: number;
  connections: number;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

async function localServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<LocalServer> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(request, response);
    });
  });
  const state: LocalServer = {
    port: 0,
    connections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

/**
 * A DNS the test writes: rebind.test → 127.0.0.1 (a name that passed registration, now pointing
 * inside); mixed.test → a public address and a loopback one.
 */
function fixedDns(): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    if (host === 'rebind.test') return [{ address: '127.0.0.1', family: 4 as const }];
    if (host === 'mixed.test') return [{ address: '93.184.216.34', family: 4 as const }, { address: '127.0.0.1', family: 4 as const }];
    throw new Error(`host ${host} does not resolve`);
  };
  return Object.assign(resolve, { asked });
}

const REQUEST = { headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' }, body: '{"type":"transaction.status.updated"}' };

describe('UndiciWebhookSender (real HTTP on 127.0.0.1)', () => {
  let target: LocalServer;
  let redirectTarget: LocalServer;
  let silent: LocalServer;
  const dns = fixedDns();
  const strict = new UndiciWebhookSender({ rules: { allowInsecure: false }, resolve: dns, timeoutMs: 5000 });
  const insecure = new UndiciWebhookSender({ rules: { allowInsecure: true }, resolve: dns, timeoutMs: 5000 });
  const impatient = new UndiciWebhookSender({ rules: { allowInsecure: true }, resolve: dns, timeoutMs: 300 });

  beforeAll(async () => {
    redirectTarget = await localServer((_request, response) => response.end('should never be reached'));
    target = await localServer((request, response) => {
      switch (request.url) {
        case '/ok':
          response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(10 * 1024));
          return;
        case '/empty':
          response.writeHead(204).end();
          return;
        case '/redirect':
          response.writeHead(302, { location: `http://127.0.0.1:${redirectTarget.port}/landed` }).end();
          return;
        case '/slow-down':
          response.writeHead(429, { 'retry-after': '7' }).end('slow down');
          return;
        case '/unavailable':
          response.writeHead(503, { 'retry-after': '120' }).end();
          return;
        case '/broken':
          response.writeHead(500, { 'retry-after': '7' }).end('broken');
          return;
        case '/query?kept=yes':
          response.writeHead(200).end('kept');
          return;
        case '/dribble':
          // The status and a first chunk, then the body never ends.
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.write('partial');
          return;
        default:
          response.writeHead(404).end();
      }
    });
    // Reads the request, then never answers.
    silent = await localServer(() => undefined);
  });

  afterAll(async () => {
    await Promise.all([strict.close(), insecure.close(), impatient.close()]);
    await Promise.all([target.close(), redirectTarget.close(), silent.close()]);
  });

  describe('SSRF rules where the connection is made', () => {
    it('refuses http:// and a loopback address by the URL alone: no connection is made', async () => {
      const before = target.connections;
      const plain = await strict.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/ok` });
      expect(plain).toMatchObject({ statusCode: null, error: 'destination refused: url must be an https:// URL', response: null, retryAfterMs: null, timedOut: false });
      const loopback = await strict.send({ ...REQUEST, url: `https://127.0.0.1:${target.port}/ok` });
      expect(loopback).toMatchObject({ statusCode: null, timedOut: false });
      expect(loopback.error).toMatch(/^destination refused: url must not point at a loopback address/);
      // The URL's check is remembered per URL: the next attempt to it is refused the same way.
      expect(await strict.send({ ...REQUEST, url: `https://127.0.0.1:${target.port}/ok` })).toMatchObject({ statusCode: null, error: loopback.error });
      expect(await strict.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/ok` })).toMatchObject({ statusCode: null, error: plain.error });
      expect(target.connections).toBe(before);
      expect(target.requests.filter((request) => request.url === '/ok')).toHaveLength(0);
    });

    it('refuses a host name that now resolves to a loopback address (rebinding): no connection is made', async () => {
      const before = target.connections;
      const result = await strict.send({ ...REQUEST, url: `https://rebind.test:${target.port}/ok` });
      expect(result).toMatchObject({ statusCode: null, response: null, timedOut: false });
      expect(result.error).toContain('destination refused');
      expect(result.error).toContain('host rebind.test points at a loopback address (127.0.0.1)');
      expect(dns.asked).toContain('rebind.test');
      expect(target.connections).toBe(before);
    });

    it('refuses a host when any one of its addresses is refused', async () => {
      const before = target.connections;
      const result = await strict.send({ ...REQUEST, url: `https://mixed.test:${target.port}/ok` });
      expect(result).toMatchObject({ statusCode: null, error: 'destination refused: host mixed.test points at a loopback address (127.0.0.1)' });
      expect(target.connections).toBe(before);
    });

    it('connects to the address the check resolved (insecure rules admit loopback)', async () => {
      const result = await insecure.send({ ...REQUEST, url: `http://rebind.test:${target.port}/empty` });
      expect(result).toMatchObject({ statusCode: 204, error: null, response: null });
      const request = target.requests.find((seen) => seen.url === '/empty')!;
      expect(request.headers.host).toBe(`rebind.test:${target.port}`);
    });
  });

  describe('answers', () => {
    it('POSTs the body and headers as given; keeps the first 4 KB of the answer', async () => {
      const result = await insecure.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/ok` });
      expect(result).toMatchObject({ statusCode: 200, error: null, retryAfterMs: null, timedOut: false });
      expect(RESPONSE_LIMIT_BYTES).toBe(4096);
      expect(result.response).toBe('x'.repeat(4096));
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
      const request = target.requests.find((seen) => seen.url === '/ok')!;
      expect(request).toMatchObject({ method: 'POST', body: REQUEST.body });
      expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'msg_1' });
    });

    it('returns a 302 as it is and does not follow it', async () => {
      const result = await insecure.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/redirect` });
      expect(result).toMatchObject({ statusCode: 302, error: null, timedOut: false });
      expect(redirectTarget.connections).toBe(0);
      expect(redirectTarget.requests).toEqual([]);
    });

    it("reads a 429's or 503's Retry-After, and no other's", async () => {
      expect(await insecure.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/slow-down` })).toMatchObject({ statusCode: 429, retryAfterMs: 7000, response: 'slow down' });
      expect(await insecure.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/unavailable` })).toMatchObject({ statusCode: 503, retryAfterMs: 120_000 });
      expect(await insecure.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/broken` })).toMatchObject({ statusCode: 500, retryAfterMs: null });
    });

    it('gives up on a receiver that never answers: no status, timed out', async () => {
      const result = await impatient.send({ ...REQUEST, url: `http://127.0.0.1:${silent.port}/hang` });
      expect(result).toMatchObject({ statusCode: null, error: 'timed out after 0.3 s', response: null, retryAfterMs: null, timedOut: true });
      expect(silent.requests).toHaveLength(1);
    });

    it('bounds the whole attempt, the body too: an answer whose body never ends is timed out', async () => {
      const result = await impatient.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/dribble` });
      expect(result).toMatchObject({ statusCode: null, error: 'timed out after 0.3 s', response: null, retryAfterMs: null, timedOut: true });
    });

    it('sends the query string with the path', async () => {
      expect(await insecure.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/query?kept=yes` })).toMatchObject({ statusCode: 200, response: 'kept' });
    });

    it('keeps its connections for the next attempts after answers read to the end, not after one cut at 4 KB', async () => {
      const keeping = new UndiciWebhookSender({ rules: { allowInsecure: true }, resolve: dns, timeoutMs: 5000 });
      const slowDown = () => keeping.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/slow-down` });
      try {
        // An attempt sent as the one before ends may open a second connection: warm up first.
        for (let attempt = 0; attempt < 3; attempt++) expect(await slowDown()).toMatchObject({ statusCode: 429 });
        const warm = target.connections;
        for (let attempt = 0; attempt < 5; attempt++) expect(await slowDown()).toMatchObject({ statusCode: 429 });
        expect(target.connections).toBe(warm);
        for (let attempt = 0; attempt < 3; attempt++) expect(await keeping.send({ ...REQUEST, url: `http://127.0.0.1:${target.port}/ok` })).toMatchObject({ statusCode: 200, response: 'x'.repeat(4096) });
        expect(target.connections).toBeGreaterThan(warm);
      } finally {
        await keeping.close();
      }
    });

    it('a refused connection is a result, not a throw', async () => {
      const closed = await localServer(() => undefined);
      const port = closed.port;
      await closed.close();
      const result = await insecure.send({ ...REQUEST, url: `http://127.0.0.1:${port}/` });
      expect(result).toMatchObject({ statusCode: null, error: 'connection failed (ECONNREFUSED)', timedOut: false });
    });
  });

  describe('retryAfter()', () => {
    const now = Date.parse('2026-11-23T08:00:00.000Z');

    it('reads delta-seconds and an HTTP date, in ms from now', () => {
      expect(retryAfter('7', now)).toBe(7000);
      expect(retryAfter(' 0 ', now)).toBe(0);
      expect(retryAfter('Mon, 23 Nov 2026 08:01:30 GMT', now)).toBe(90_000);
      expect(retryAfter(['30', '60'], now)).toBe(30_000);
    });

    it('a date in the past is now; nothing readable is null', () => {
      expect(retryAfter('Mon, 23 Nov 2026 07:00:00 GMT', now)).toBe(0);
      expect(retryAfter(undefined, now)).toBeNull();
      expect(retryAfter('', now)).toBeNull();
      expect(retryAfter('soon', now)).toBeNull();
    });
  });
});

describe('EnvDeliverySettings', () => {
  it('reads the retry schedule and the disable rules as durations', () => {
    const settings = new EnvDeliverySettings({ WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s', WEBHOOK_DISABLE_AFTER: '5d', WEBHOOK_DISABLE_MIN_FAILURES: '4' });
    expect(settings.retrySchedule).toEqual([200, 500, 1000]);
    expect(settings.disableRules).toEqual({ afterMs: 5 * 24 * 3600 * 1000, minFailures: 4 });
    expect(new EnvDeliverySettings({ WEBHOOK_RETRY_SCHEDULE: ' 5s, 2h ', WEBHOOK_DISABLE_AFTER: '90000' }).retrySchedule).toEqual([5000, 7_200_000]);
  });

  it('defaults to the schedule and rules of api-decisions §8', () => {
    const settings = new EnvDeliverySettings({});
    expect(settings.retrySchedule).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
    expect(settings.disableRules).toEqual(DEFAULT_DISABLE_RULES);
    // A lease outlives the longest attempt (15 s).
    expect(settings.leaseMs).toBeGreaterThan(15_000);
  });

  it('refuses what is not a duration', () => {
    expect(() => new EnvDeliverySettings({ WEBHOOK_DISABLE_AFTER: 'soon' })).toThrow('WEBHOOK_DISABLE_AFTER: "soon" is not a duration');
    expect(() => new EnvDeliverySettings({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow('WEBHOOK_RETRY_SCHEDULE: "soon" is not a duration');
    expect(() => new EnvDeliverySettings({ WEBHOOK_RETRY_SCHEDULE: '5s,-1s' })).toThrow('WEBHOOK_RETRY_SCHEDULE');
    expect(() => new EnvDeliverySettings({ WEBHOOK_DISABLE_MIN_FAILURES: '0' })).toThrow('WEBHOOK_DISABLE_MIN_FAILURES');
  });
});
