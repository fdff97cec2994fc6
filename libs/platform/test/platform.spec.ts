import { Writable } from 'node:stream';
import { readPlatformConfig } from '../src/config';
import { runChecks, startAdminServer } from '../src/health';
import { createLogger, currentRequestId, runWithRequestId } from '../src/logger';

describe('config', () => {
  it('defaults to sandbox on localhost and refuses production without a pepper', () => {
    const config = readPlatformConfig({});
    expect(config.serviceEnv).toBe('sandbox');
    expect(config.commandTimeoutMs).toBe(5000);
    expect(() => readPlatformConfig({ SERVICE_ENV: 'production' })).toThrow(/API_KEY_PEPPER/);
    expect(() => readPlatformConfig({ SERVICE_ENV: 'staging' })).toThrow(/SERVICE_ENV/);
    expect(() => readPlatformConfig({ COMMAND_TIMEOUT_MS: '-1' })).toThrow(/COMMAND_TIMEOUT_MS/);
    expect(readPlatformConfig({ COMMAND_TIMEOUT_MS: '250' }).commandTimeoutMs).toBe(250);
  });

  it('bounds the attempts at an event (EVENT_MAX_ATTEMPTS), about a day of retries by default', () => {
    expect(readPlatformConfig({}).eventMaxAttempts).toBe(300);
    expect(readPlatformConfig({ EVENT_MAX_ATTEMPTS: '3' }).eventMaxAttempts).toBe(3);
    expect(() => readPlatformConfig({ EVENT_MAX_ATTEMPTS: '0' })).toThrow(/EVENT_MAX_ATTEMPTS/);
  });

  it('reads a pool size for the process (DATABASE_POOL_SIZE), none by default', () => {
    expect(readPlatformConfig({}).databasePoolSize).toBeNull();
    expect(readPlatformConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(() => readPlatformConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => readPlatformConfig({ DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE/);
  });
});

describe('logger', () => {
  it('writes JSON lines with the request id and censors credentials', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const captured = createLogger('test-service', 'info', sink);
    runWithRequestId('req_abc', () => {
      expect(currentRequestId()).toBe('req_abc');
      captured.info({ authorization: 'Bearer sk_test_secret', nested: { apiKey: 'sk_test_x' } }, 'hello');
      captured.info({ payload: { accountNumber: '000123456789', iban: 'DE89370400440532013000', taxId: '987-65-4321' }, taxId: '987-65-4321' }, 'bank details');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const entry = JSON.parse(lines.at(-2) as string);
    expect(entry).toMatchObject({ level: 'info', service: 'test-service', requestId: 'req_abc', msg: 'hello' });
    expect(lines.join('')).not.toContain('sk_test_');
    // Account numbers (and the IBANs that embed them) and tax ids are censored like credentials.
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ payload: { accountNumber: '[redacted]', iban: '[redacted]', taxId: '[redacted]' }, taxId: '[redacted]' });
    expect(lines.join('')).not.toMatch(/000123456789|0532013000|987-65-4321/);
  });
});

describe('health', () => {
  it('reports each check and is unavailable when one fails or hangs', async () => {
    const report = await runChecks(
      { ok: async () => undefined, broken: async () => Promise.reject(new Error('down')), slow: () => new Promise<void>(() => undefined) },
      100,
    );
    expect(report).toEqual({ status: 'unavailable', checks: { ok: 'ok', broken: 'down', slow: 'no answer within 100 ms' } });
  });

  it('serves /healthz and /readyz on the admin port', async () => {
    let healthy = true;
    const server = await startAdminServer(0, {
      db: async () => {
        if (!healthy) throw new Error('unreachable');
      },
    });
    const { port } = server.address() as { port: number };
    try {
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      healthy = false;
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', checks: { db: 'unreachable' } });
      expect((await fetch(`http://127.0.0.1:${port}/nope`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
