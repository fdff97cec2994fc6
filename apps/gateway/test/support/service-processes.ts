import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { APPS, startApps, type RunningStack } from '@pfs/devstack';
import { testDatabaseUrl, testRedisUrl } from '@pfs/testing';
import { sharedRunningStack, sharedStackDescription } from '../e2e/support/shared-stack';
import { CLI, operatorCli } from './operator-cli';

export const ROOT = resolve(__dirname, '../../../..');

export interface CreatedOrganization {
  organizationId: string;
  accountId: string;
  apiKey: string;
}

export interface ServiceProcesses {
  stack: RunningStack;
  /** The BullMQ key prefix the services (and this process's gateways) use: the shared stack's in the end-to-end project. */
  queuePrefix: string;
  env: NodeJS.ProcessEnv;
  /** The operator CLI with the services' environment; `--json` output parsed. */
  cli<T>(...args: string[]): Promise<T>;
  /** A root organization, verification-approved, with its primary account and one API key. */
  createOrganization(label: string): Promise<CreatedOrganization>;
  /** Another API key of the organization: a fresh rate-limit budget. */
  createApiKey(organizationId: string): Promise<{ keyId: string; apiKey: string }>;
  stop(): Promise<void>;
}

/**
 * The named services as real processes (built `dist/`) on this test file's queue prefix, for
 * a gateway running in the test's own process. Requires `turbo run build` first.
 */
export async function startServices(queuePrefix: string, requested: string[]): Promise<ServiceProcesses> {
  // A new organization's primary account is opened on the ledger before the creating command
  // answers (the operator CLI's included): the organization service never runs without it.
  const names = requested.includes('organization-service') && !requested.includes('ledger-service') ? [...requested, 'ledger-service'] : requested;
  const unbuilt = [...APPS.filter((app) => names.includes(app.name)).map((app) => join(ROOT, app.dir, 'dist/main.js')), CLI].filter(
    (file) => !existsSync(file),
  );
  if (unbuilt.length) throw new Error(`build the apps first (node_modules/.bin/turbo run build); missing: ${unbuilt.join(', ')}`);
  const shared = sharedStackDescription();
  // In the end-to-end project the services are the shared stack's: the gateway this file boots
  // in its own process must send on that stack's queue prefix, so it is set before the boot.
  if (shared) process.env.QUEUE_PREFIX = shared.queuePrefix;
  const env: NodeJS.ProcessEnv = shared
    ? shared.env
    : { DATABASE_URL: testDatabaseUrl(), REDIS_URL: testRedisUrl(), QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'info', SERVICE_ENV: 'sandbox' };
  const stack = shared ? sharedRunningStack(shared) : await startApps({ root: ROOT, ports: 'random', env, only: names, readyTimeoutMs: 60000 });
  // On the shared stack this process already has its database, Redis and queue prefix: the
  // operator CLI runs in it.
  const cli = <T>(...args: string[]): Promise<T> => operatorCli<T>(args, { inProcess: Boolean(shared), env });
  return {
    stack,
    queuePrefix: shared ? shared.queuePrefix : queuePrefix,
    env,
    cli,
    createOrganization: (label) => cli<CreatedOrganization>('org:create', '--name', `${label} ${randomBytes(4).toString('hex')}`, '--approved'),
    createApiKey: (organizationId) => cli<{ keyId: string; apiKey: string }>('key:create', '--org', organizationId),
    stop: () => stack.stop(),
  };
}
