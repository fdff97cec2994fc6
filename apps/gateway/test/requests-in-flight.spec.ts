import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { installRequestHooks } from '../src/http/request-context.hooks';
import { memoryLogger, type MemoryLogger } from './support/in-memory/memory-logger';

/** The gateway's request hooks on a bare Fastify server: what its drain waits for before it says it stopped. */
describe('requests in flight (a real server on loopback)', () => {
  let app: FastifyInstance;
  let log: MemoryLogger;
  let release: () => void = () => undefined;
  let url: string;

  beforeEach(async () => {
    log = memoryLogger();
    app = Fastify();
    installRequestHooks(app, log.logger);
    app.get('/slow', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    release();
    await app.close();
  });

  const completedLines = () => log.lines().filter((line) => line.msg === 'request completed');
  const arrived = async () => {
    while (app.requestsInFlight.size === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('settles once every request received has written its access-log line, not before', async () => {
    const answered = fetch(`${url}/slow`).then((response) => response.json());
    await arrived();
    let settled = false;
    const settling = app.requestsInFlight.settled(60_000).then(() => {
      settled = true;
      return completedLines().length;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);

    release();
    expect(await answered).toEqual({ ok: true });
    expect(await settling).toBe(1);
    expect(app.requestsInFlight.size).toBe(0);
    await expect(app.requestsInFlight.settled(60_000)).resolves.toBeUndefined();
  });

  it('counts a request its client gave up on as ended', async () => {
    const client = httpRequest(`${url}/slow`);
    client.on('error', () => undefined);
    client.end();
    await arrived();
    const settling = app.requestsInFlight.settled(60_000);
    client.destroy();
    await settling;
    expect(app.requestsInFlight.size).toBe(0);
  });

  it('gives up waiting after its bound', async () => {
    void fetch(`${url}/slow`).catch(() => undefined);
    await arrived();
    const started = Date.now();
    await app.requestsInFlight.settled(100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(app.requestsInFlight.size).toBe(1);
  });
});
