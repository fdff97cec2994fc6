import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { APPS, type AppSpec, type RunningApp, type RunningStack } from '@pfs/devstack';

/**
 * The one stack every file of the end-to-end project talks to: started once by the project's
 * global setup (`shared-stack.global-setup.ts`), isolated between files by organization.
 *
 * Its settings are the union of what those files need. A file that needs a setting to differ
 * (a rate limit of 25 a minute, a worker retry schedule of milliseconds, a process it kills or
 * restarts) belongs in the isolated project, where each file starts its own stack.
 */
export const SHARED_STACK_SETTINGS: Readonly<Record<string, string>> = {
  LOG_LEVEL: 'info',
  SERVICE_ENV: 'sandbox',
  // Files run side by side and send bursts of hundreds of requests per key.
  RATE_LIMIT_PER_MINUTE: '100000',
  // Two files side by side (and a busy machine) queue each other's commands: a reply seconds late
  // is slow, not a service that is down, so the gateway waits far longer than the 5 s default
  // before its 503. The fast 503 of a stopped service is the isolated project's
  // (service-outage.spec.ts). The test client waits longer still (http-client.ts).
  COMMAND_TIMEOUT_MS: '60000',
  // The sandbox's default mid-rates without USDT/USDC, so that one pair of the catalog has no
  // rate; every quote of the project is priced at exactly these rates (no drift).
  RATES:
    'EUR/USD=1.08,USDC/USD=1,USDT/USD=1,BTC/USD=97000,ETH/USD=3500,' +
    'EUR/USDC=1.08,EUR/USDT=1.08,BTC/EUR=89800,ETH/EUR=3240,' +
    'BTC/USDC=97000,ETH/USDC=3500,BTC/USDT=97000,ETH/USDT=3500,' +
    'ETH/BTC=0.036',
  RATES_DRIFT_BPS: '0',
  // Sandbox payouts advance one step every 200 ms.
  SANDBOX_SETTLE_DELAY: '200ms',
  // Webhook receivers run on this machine (loopback, plain HTTP), resolved by the setup's DNS server.
  WEBHOOK_ALLOW_INSECURE_URLS: 'true',
  WEBHOOK_ENDPOINT_CACHE_MS: '0',
};

/** What the global setup hands to every test file (through one environment variable). */
export interface SharedStackDescription {
  queuePrefix: string;
  env: Record<string, string>;
  gatewayUrl: string;
  apps: Array<{ name: string; port: number; url: string; adminUrl: string; logFile: string }>;
}

export const SHARED_STACK_VARIABLE = 'PFS_E2E_SHARED_STACK';

export function sharedStackDescription(): SharedStackDescription | undefined {
  const raw = process.env[SHARED_STACK_VARIABLE];
  return raw ? (JSON.parse(raw) as SharedStackDescription) : undefined;
}

export function logFileOf(logDir: string, app: string): string {
  return join(logDir, `${app}.log`);
}

/**
 * The lines an app of the shared stack has logged so far, read from the file the global setup
 * appends them to; each read takes only the bytes written since the last one.
 */
class LogTail {
  private lines: string[] = [];
  private offset = 0;
  private partial = '';

  constructor(private readonly file: string) {}

  read(): string[] {
    if (!existsSync(this.file)) return this.lines;
    const size = statSync(this.file).size;
    if (size > this.offset) {
      const fd = openSync(this.file, 'r');
      try {
        const buffer = Buffer.alloc(size - this.offset);
        readSync(fd, buffer, 0, buffer.length, this.offset);
        this.offset = size;
        const text = this.partial + buffer.toString('utf8');
        const parts = text.split('\n');
        this.partial = parts.pop() ?? '';
        for (const line of parts) if (line) this.lines.push(line);
      } finally {
        closeSync(fd);
      }
    }
    return this.lines;
  }
}

const OWNED_ELSEWHERE =
  'the shared stack’s processes belong to the end-to-end global setup: a test that stops, starts or signals a process runs in the isolated project (test/e2e-isolated)';

/**
 * A view of the shared stack shaped like the stack a file would start itself: its apps, their
 * URLs and their logs. Stopping or starting a process is refused.
 */
export function sharedRunningStack(description: SharedStackDescription): RunningStack {
  const apps = new Map<string, RunningApp>();
  for (const app of description.apps) {
    const spec = APPS.find((candidate) => candidate.name === app.name) as AppSpec;
    const tail = new LogTail(app.logFile);
    apps.set(app.name, {
      spec,
      instance: app.name,
      replica: 1,
      port: app.port,
      url: app.url,
      adminUrl: app.adminUrl,
      get process(): never {
        throw new Error(OWNED_ELSEWHERE);
      },
      get output(): string[] {
        return tail.read();
      },
    });
  }
  return {
    apps,
    gatewayUrl: description.gatewayUrl,
    gatewayUrls: description.gatewayUrl ? [description.gatewayUrl] : [],
    stopApp: async () => {
      throw new Error(OWNED_ELSEWHERE);
    },
    startApp: async () => {
      throw new Error(OWNED_ELSEWHERE);
    },
    // The global teardown stops it.
    stop: async () => undefined,
  };
}

/**
 * Refuses a file's settings that the shared stack does not have: such a file would pass or
 * fail by the settings of the stack it happens to meet.
 */
export function assertSharedSettings(description: SharedStackDescription, wanted: NodeJS.ProcessEnv): void {
  const differing = Object.entries(wanted).filter(([name, value]) => value !== undefined && description.env[name] !== value);
  if (differing.length) {
    throw new Error(
      `the shared end-to-end stack runs with ${differing.map(([name]) => `${name}=${description.env[name] ?? '(unset)'}`).join(', ')}, ` +
        `not ${differing.map(([name, value]) => `${name}=${value}`).join(', ')}: use the shared settings, or move the file to the isolated project (test/e2e-isolated)`,
    );
  }
}
