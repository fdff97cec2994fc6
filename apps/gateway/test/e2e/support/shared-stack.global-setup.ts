import { createWriteStream, mkdtempSync, type WriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startApps, type RunningStack } from '@pfs/devstack';
import { createTestDatabase, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { logFileOf, SHARED_STACK_SETTINGS, SHARED_STACK_VARIABLE, type SharedStackDescription } from './shared-stack';
import { TestDnsServer } from './test-dns-server';

const ROOT = resolve(__dirname, '../../../../..');

/** Held between this setup and the teardown (jest runs both in its parent process). */
export interface SharedStackHandle {
  stack: RunningStack;
  dns: TestDnsServer;
  logDir: string;
  /** The apps' log files, open for appending until the teardown ends them. */
  logs: Map<string, WriteStream>;
}

export const HANDLE = Symbol.for('pfs.e2e.sharedStack');

/**
 * Jest globalSetup of the end-to-end project: the run's own database (cloned from the migrated
 * template), then every app once, as its own process on free ports, with the shared settings.
 * Each app's log goes to a file the test files read.
 */
export default async function sharedStackSetup(): Promise<void> {
  // The run's own database, as every package's jest run gets (libs/testing's global setup).
  process.env.PFS_TEST_TEMPLATE_URL = testDatabaseUrl();
  process.env.DATABASE_URL = await createTestDatabase(process.env.PFS_TEST_TEMPLATE_URL);
  const logDir = mkdtempSync(join(tmpdir(), 'pfs-e2e-logs-'));
  // One append stream per app: a line is a buffered write, not an open, write and close.
  const logs = new Map<string, WriteStream>();
  const logOf = (app: string): WriteStream => {
    let stream = logs.get(app);
    if (!stream) logs.set(app, (stream = createWriteStream(logFileOf(logDir, app), { flags: 'a' })));
    return stream;
  };
  const dns = await new TestDnsServer().start();
  dns.records.set('localhost', ['127.0.0.1']);
  const queuePrefix = `e2e-${randomBytes(4).toString('hex')}`;
  const env: Record<string, string> = {
    ...SHARED_STACK_SETTINGS,
    DATABASE_URL: testDatabaseUrl(),
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: queuePrefix,
    WEBHOOK_DNS_SERVERS: dns.address,
  };
  let stack: RunningStack;
  try {
    stack = await startApps({
      root: ROOT,
      ports: 'random',
      env,
      readyTimeoutMs: 90000,
      onLine: (app, line) => logOf(app).write(`${line}\n`),
    });
  } catch (error) {
    await dns.stop();
    throw error;
  }
  const description: SharedStackDescription = {
    queuePrefix,
    env,
    gatewayUrl: stack.gatewayUrl as string,
    apps: [...stack.apps.values()].map((app) => ({ name: app.instance, port: app.port, url: app.url, adminUrl: app.adminUrl, logFile: logFileOf(logDir, app.instance) })),
  };
  process.env[SHARED_STACK_VARIABLE] = JSON.stringify(description);
  (globalThis as Record<symbol, SharedStackHandle>)[HANDLE] = { stack, dns, logDir, logs };
}
