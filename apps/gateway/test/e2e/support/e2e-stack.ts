import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { APPS, startApps, type RunningStack } from '@pfs/devstack';
import { createTestDatabase, testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { send, type Answer } from '../../support/http-client';
import { CLI, operatorCli } from '../../support/operator-cli';
import { assertSharedSettings, sharedRunningStack, sharedStackDescription } from './shared-stack';

// One HTTP client for every gateway test; re-exported for the end-to-end files.
export { expectError, REQUEST_ID, type Answer, type ErrorBody } from '../../support/http-client';

export const ROOT = resolve(__dirname, '../../../../..');
export { CLI };

/** An app of the stack by name, e.g. 'ledger-service'. */
export type AppName = 'organization-service' | 'ledger-service' | 'quote-service' | 'beneficiary-service' | 'webhook-delivery-service' | 'webhook-delivery-worker' | 'gateway';

export interface CreatedOrganization {
  organizationId: string;
  accountId: string;
  apiKey: string;
}

export interface E2eStack {
  stack: RunningStack;
  /** The BullMQ key prefix the stack's apps use. */
  queuePrefix: string;
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  /** The operator CLI with the stack's environment; `--json` output parsed. */
  cli<T>(...args: string[]): Promise<T>;
  createOrganization(label: string): Promise<CreatedOrganization>;
  get(path: string, options?: { key?: string; headers?: Record<string, string> }): Promise<Answer>;
  /** Every line the gateway process has logged so far, parsed. */
  gatewayLog(): Array<Record<string, unknown>>;
  /** Every line an app has logged so far, parsed (its first process's, with replicas). */
  appLog(app: AppName): Array<Record<string, unknown>>;
  /** Whether the app has logged that it handled the event (the consumer's line, outcome ok). */
  handledEvent(app: AppName, eventId: string): boolean;
  stop(): Promise<void>;
}

/**
 * The stack this test file talks to. In the end-to-end project, the one stack its global setup
 * started (the settings asked for must be among the shared ones; `queuePrefix` is then the
 * shared stack's, see `E2eStack.queuePrefix`). In the isolated project, every app of the
 * repository as its own process (built `dist/`), on free ports, on this file's queue prefix and
 * on a database of this file's own (see `isolatedDatabase`), with `extraEnv` on top of the
 * defaults; `options.apps` starts only those (the gateway is always started), a file that needs
 * fewer services starts sooner; `options.replicas` starts that many processes of each service and
 * two gateways behind a local balancer (`baseUrl`); `options.envByApp` gives an app settings of
 * its own (a database of its own). Requires `turbo run build` first.
 */
export async function startE2eStack(queuePrefix: string, extraEnv: NodeJS.ProcessEnv = {}, options: { apps?: AppName[]; replicas?: number; envByApp?: Partial<Record<AppName, NodeJS.ProcessEnv>> } = {}): Promise<E2eStack> {
  const unbuilt = [...APPS.map((app) => join(ROOT, app.dir, 'dist/main.js')), CLI].filter((file) => !existsSync(file));
  if (unbuilt.length) throw new Error(`build every app first (node_modules/.bin/turbo run build); missing: ${unbuilt.join(', ')}`);
  const shared = sharedStackDescription();
  if (shared) {
    assertSharedSettings(shared, extraEnv);
    // This file's process takes the stack's environment, so the operator CLI runs in it (jest
    // gives every test file its own copy of process.env).
    Object.assign(process.env, shared.env);
    return e2eStackOf(sharedRunningStack(shared), shared.queuePrefix, shared.env, true);
  }
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: await isolatedDatabase(),
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'info',
    SERVICE_ENV: 'sandbox',
    // Service configuration a test needs, e.g. SUB_ORG_TIER_OFFERS.
    ...extraEnv,
  };
  const only = options.apps ? [...new Set<string>([...options.apps, 'gateway'])] : undefined;
  const stack = await startApps({ root: ROOT, ports: 'random', env, readyTimeoutMs: 120000, replicas: options.replicas ?? 1, envByApp: options.envByApp, ...(only ? { only } : {}) });
  // The operator CLI runs in this file's process (a process of its own costs a second of CPU per
  // call), so this file's process takes the stack's environment (jest gives every file its own).
  Object.assign(process.env, env);
  return e2eStackOf(stack, queuePrefix, env, true);
}

/**
 * A database of this test file's own, cloned from the jest run's, and made this file's
 * `testDatabaseUrl()`. Isolated files run two at a time, and a stack's sweepers and relays read
 * every due row of their database (the delivery worker's sweeper queues any organization's
 * deliveries): two stacks on one database would work each other's rows. Named after the run's
 * database, whose global teardown (`isolated.global-teardown.ts`) drops it with the run's.
 */
export async function isolatedDatabase(): Promise<string> {
  const url = await createTestDatabase(testDatabaseUrl());
  process.env.DATABASE_URL = url;
  return url;
}

function e2eStackOf(stack: RunningStack, queuePrefix: string, env: NodeJS.ProcessEnv, cliInProcess: boolean): E2eStack {
  const baseUrl = stack.gatewayUrl;
  if (!baseUrl) throw new Error('the stack started without a gateway');

  const cli = <T>(...args: string[]): Promise<T> => operatorCli<T>(args, { inProcess: cliInProcess, env });
  const logs = new Map<AppName, { read: number; parsed: Array<Record<string, unknown>> }>();
  const appLog = (app: AppName): Array<Record<string, unknown>> => {
    // Tests poll it: only the lines logged since the last call are parsed.
    const log = logs.get(app) ?? { read: 0, parsed: [] };
    logs.set(app, log);
    const lines = stack.apps.get(app)?.output ?? [];
    for (; log.read < lines.length; log.read += 1) {
      try {
        log.parsed.push(JSON.parse(lines[log.read] as string) as Record<string, unknown>);
      } catch {
        // not a JSON line (a crash's stack trace, say)
      }
    }
    return log.parsed;
  };

  return {
    stack,
    queuePrefix,
    baseUrl,
    env,
    cli,
    createOrganization: (label) => cli<CreatedOrganization>('org:create', '--name', `${label} ${randomBytes(4).toString('hex')}`, '--approved'),
    get: (path, options = {}) => send(baseUrl, path, options),
    gatewayLog: () => appLog('gateway'),
    appLog,
    handledEvent: (app, eventId) => appLog(app).some((line) => line.msg === 'event handled' && line.eventId === eventId && line.outcome === 'ok'),
    stop: () => stack.stop(),
  };
}

/**
 * Reads the whole statement of `org`'s account (`GET /v1/accounts/{id}/entries`, every page) and
 * opens each line's transaction as `org` (`GET /v1/transactions/{id}`). Answers how many lines
 * there were and each line whose transaction does not open as one of that account's own, with
 * the status it got: a statement must point only at the reader's own transactions.
 */
export async function statementCheck(baseUrl: string, org: CreatedOrganization): Promise<{ lines: number; transactionIds: string[]; foreign: Array<{ transactionId: string; status: number }> }> {
  const transactionIds: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await send(baseUrl, `/v1/accounts/${org.accountId}/entries?${query}`, { key: org.apiKey });
    if (page.status !== 200) throw new Error(`entries of ${org.accountId}: ${page.status}`);
    const body = page.json<{ data: Array<{ transactionId: string }>; hasMore: boolean; nextCursor: string | null }>();
    transactionIds.push(...body.data.map((line) => line.transactionId));
    cursor = body.hasMore ? body.nextCursor : null;
  } while (cursor);
  const foreign: Array<{ transactionId: string; status: number }> = [];
  for (const transactionId of new Set(transactionIds)) {
    const opened = await send(baseUrl, `/v1/transactions/${transactionId}`, { key: org.apiKey });
    if (opened.status !== 200 || opened.json<{ accountId: string }>().accountId !== org.accountId) foreign.push({ transactionId, status: opened.status });
  }
  return { lines: transactionIds.length, transactionIds, foreign };
}
