// The up command, `pnpm run stack`: from a fresh clone to the whole stack running locally.
// Installs, generates, builds, finds or starts PostgreSQL and Redis, migrates, starts every app
// as its own process, waits for the gateway's /readyz, creates an approved demo organization and
// prints its sandbox API key. Ctrl-C (or SIGTERM) stops everything this command started.
import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { builtLibraries, bold, cyan, dim, Fatal, green, infrastructure, prepareWorkspace, red, root, seconds, signalChildren } from './lib/workspace.mjs';

const began = Date.now();
const logDir = join(root, '.data/logs');
const gatewayPort = process.env.PORT ? Number(process.env.PORT) : 3000;
const verbose = process.argv.includes('--logs');
// `--redis-cluster`: the apps run on a local Redis Cluster of three primaries started here
// (REDIS_CLUSTER_NODES naming a cluster of your own does the same without starting one).
const localCluster = process.argv.includes('--redis-cluster') || process.env.STACK_REDIS_CLUSTER === '1';
let replicas = 1;

/** `--replicas N` or STACK_REPLICAS: processes of every service and of the worker (two gateways from 2 on). */
function replicaCount() {
  const flag = process.argv.indexOf('--replicas');
  const raw = flag >= 0 ? process.argv[flag + 1] : process.env.STACK_REPLICAS;
  if (raw === undefined || raw === '') return 1;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 8) throw new Fatal(`--replicas / STACK_REPLICAS must be a whole number from 1 to 8, not ${raw}`);
  return count;
}

/** What to undo on the way out, newest first. */
const cleanups = [];
let shuttingDown = false;

async function shutdown(code, reason) {
  if (shuttingDown) return;
  shuttingDown = true;
  if (reason) process.stdout.write(`\n${reason}\n`);
  if (!cleanups.length) process.exit(code);
  process.stdout.write(`${cyan('▸')} stopping what this command started\n`);
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      process.stderr.write(`  ${red(`cleanup failed: ${error.message}`)}\n`);
    }
  }
  process.stdout.write(`  ${dim('stopped')}\n`);
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // A second Ctrl-C while stopping: give up waiting.
    if (shuttingDown) process.exit(130);
    signalChildren(signal);
    void shutdown(0, `${signal} received`);
  });
}

async function main() {
  if (!Number.isInteger(gatewayPort) || gatewayPort <= 0) throw new Fatal(`PORT must be a port number, not ${process.env.PORT}`);
  replicas = replicaCount();
  process.stdout.write(`${bold('Partner Finance Service')} ${dim('— starting the local stack')}\n`);
  await prepareWorkspace();
  const { devstack, persistence } = builtLibraries();

  await assertPortsFree(devstack);
  const infra = await infrastructure(devstack, { database: 'pfs' });
  cleanups.push(() => infra.stop());

  // A service may live in a database of its own: <APP>_DATABASE_URL (LEDGER_SERVICE_DATABASE_URL, ...).
  const envByApp = ownDatabases(devstack);
  // The shared database gets every schema; a database of an app's own gets that app's schema alone.
  const databases = new Map([[infra.databaseUrl, undefined]]);
  for (const spec of devstack.APPS) {
    const url = envByApp[spec.name]?.DATABASE_URL;
    if (url && spec.schema && url !== infra.databaseUrl) databases.set(url, [...(databases.get(url) ?? []), spec.schema]);
  }
  for (const [databaseUrl, schemas] of databases) {
    const migrateStarted = Date.now();
    const which = databases.size > 1 ? ` ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}${schemas ? ` (schema ${schemas.join(', ')})` : ''}` : '';
    process.stdout.write(`${cyan('▸')} migrate the database${which} `);
    await persistence.ensureDatabase(databaseUrl);
    const migrations = await persistence.applyMigrations(databaseUrl, join(root, 'prisma/migrations'), schemas ? { schemas } : {});
    process.stdout.write(
      `${dim(`${migrations.applied.length} applied, ${migrations.alreadyApplied.length} already applied (${seconds(migrateStarted)})`)}\n`,
    );
  }

  const env = {
    SERVICE_ENV: process.env.SERVICE_ENV ?? 'sandbox',
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // A local stack delivers webhooks to receivers on this machine (http://127.0.0.1:…), as the
    // quickstart example's; private and metadata addresses stay refused. Never in production.
    WEBHOOK_ALLOW_INSECURE_URLS: process.env.WEBHOOK_ALLOW_INSECURE_URLS ?? (process.env.SERVICE_ENV === 'production' ? 'false' : 'true'),
  };
  if (localCluster) {
    const clusterStarted = Date.now();
    process.stdout.write(`${cyan('▸')} start a Redis Cluster of three primaries `);
    const cluster = await devstack.startRedisCluster();
    cleanups.push(() => cluster.stop());
    env.REDIS_CLUSTER_NODES = cluster.nodesSetting;
    infra.started.push(`Redis Cluster on ${cluster.nodesSetting}`);
    process.stdout.write(`${dim(`${cluster.nodesSetting} (${seconds(clusterStarted)})`)}\n`);
  }
  const stack = await startApps(devstack, env, envByApp);
  cleanups.push(() => stack.stop());

  const demo = await createDemoOrganization({ ...env, ...envByApp['organization-service'] });
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const accountReady = await waitForAccount(baseUrl, demo);
  printSummary({ baseUrl, demo, accountReady, infra, stack });
  watchApps(stack);
}

/** The apps listen on fixed ports: say which one is taken rather than failing obscurely later. */
async function assertPortsFree(devstack) {
  const { createServer } = await import('node:net');
  for (const spec of devstack.APPS) {
    const ports = [spec.name === 'gateway' ? gatewayPort : spec.defaultPort, ...(spec.defaultAdminPort === undefined ? [] : [spec.defaultAdminPort])];
    for (const port of ports) {
      const free = await new Promise((resolve) => {
        const server = createServer();
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
      });
      if (!free) {
        const hint = port === gatewayPort ? 'set PORT to another port' : `stop what uses it (is another stack running? try: curl 127.0.0.1:${port}/healthz)`;
        throw new Fatal(`port ${port} (${spec.name}) is already in use: ${hint}`);
      }
    }
  }
}

/** `<APP>_DATABASE_URL` for each app that sets one: that app's processes use it as their DATABASE_URL. */
function ownDatabases(devstack) {
  const envByApp = {};
  for (const spec of devstack.APPS) {
    const url = process.env[`${spec.name.toUpperCase().replaceAll('-', '_')}_DATABASE_URL`];
    if (url) envByApp[spec.name] = { DATABASE_URL: url };
  }
  return envByApp;
}

async function startApps(devstack, env, envByApp) {
  const started = Date.now();
  mkdirSync(logDir, { recursive: true });
  const processes = replicas === 1 ? `${devstack.APPS.length} apps` : `${devstack.APPS.length} apps, ${replicas} replicas of each service and two gateways`;
  process.stdout.write(`${cyan('▸')} start ${processes} ${dim(`(logs in ${relative(process.cwd(), logDir) || '.'}/<app>.log)`)} `);
  // One log per process: `ledger-service.log`, `ledger-service-2.log`, ...
  const logs = new Map();
  const logOf = (instance) => {
    let stream = logs.get(instance);
    if (!stream) {
      stream = createWriteStream(join(logDir, `${instance}.log`), { flags: 'a' });
      logs.set(instance, stream);
    }
    return stream;
  };
  cleanups.push(() => Promise.all([...logs.values()].map((stream) => new Promise((resolve) => stream.end(resolve)))));
  const width = Math.max(...devstack.APPS.map((spec) => spec.name.length)) + (replicas > 1 ? 2 : 0);
  try {
    const stack = await devstack.startApps({
      root,
      env,
      ports: 'default',
      portOverrides: { gateway: gatewayPort },
      replicas,
      envByApp,
      readyTimeoutMs: 60000,
      onLine: (app, line) => {
        logOf(app).write(`${line}\n`);
        if (verbose) process.stdout.write(`${dim(app.padEnd(width))} │ ${line}\n`);
      },
    });
    process.stdout.write(`${dim(seconds(started))}\n`);
    return stack;
  } catch (error) {
    process.stdout.write(`${red('failed')}\n`);
    throw new Fatal(`${error.message.split('\n')[0]} (the app's last lines are in ${relative(process.cwd(), logDir)}/)`);
  }
}

/** api-decisions §3: the operator CLI prints {"organizationId","accountId","apiKey"} with --json. */
async function createDemoOrganization(env) {
  process.stdout.write(`${cyan('▸')} create an approved demo organization `);
  const cli = join(root, 'apps/organization-service/dist/cli.js');
  const stdout = await new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'org:create', '--name', 'Sandbox demo', '--approved', '--json'],
      { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, timeout: 30000 },
      (error, out, err) => (error ? reject(new Fatal(`the operator CLI failed: ${(err || error.message).trim().split('\n').pop()}`)) : resolve(out)),
    );
  });
  let demo;
  try {
    demo = JSON.parse(stdout);
  } catch {
    throw new Fatal(`the operator CLI printed something other than one JSON object: ${stdout.trim().slice(0, 200)}`);
  }
  if (typeof demo.apiKey !== 'string') throw new Fatal('the operator CLI printed no apiKey');
  process.stdout.write(`${dim(demo.organizationId)}\n`);
  return demo;
}

/** The CLI prints once the ledger has opened the primary account: checks that it answers through the gateway. */
async function waitForAccount(baseUrl, demo) {
  if (!demo.accountId) return false;
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/v1/accounts/${demo.accountId}`, {
        headers: { authorization: `Bearer ${demo.apiKey}` },
        signal: AbortSignal.timeout(2000),
      });
      if (response.ok) return true;
    } catch {
      // retry
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

function printSummary({ baseUrl, demo, accountReady, infra, stack }) {
  const rows = [...stack.apps.values()].map((app) => `${app.instance} ${dim(app.adminUrl === app.url ? `:${app.port}` : `:${app.port}, admin :${new URL(app.adminUrl).port}`)}`);
  const started = infra.started.length ? infra.started.join(', ') : 'none (using PostgreSQL and Redis that were already running)';
  const out = [
    '',
    `${green('✔')} ${bold('Partner Finance Service is up')} ${dim(`in ${seconds(began)}`)}`,
    '',
    `  Base URL      ${bold(baseUrl)}   ${dim(`(docs ${baseUrl}/docs, OpenAPI ${baseUrl}/openapi.json)`)}`,
    `  Sandbox key   ${bold(demo.apiKey)}`,
    `  Organization  ${demo.organizationId} ${dim('(approved)')}, primary account ${demo.accountId ?? '?'}`,
    `  Apps          ${rows.join(', ')}`,
    ...(stack.gatewayUrls.length > 1 ? [`  Gateways      ${stack.gatewayUrls.join(', ')} ${dim(`(behind ${baseUrl}, connection by connection)`)}`] : []),
    `  Started       ${started}`,
    `  Logs          ${relative(process.cwd(), logDir)}/<app>.log${verbose ? '' : dim('  (add --logs to print them here)')}`,
    '',
    `  Try it:`,
    `  curl -s ${baseUrl}/v1/accounts -H "Authorization: Bearer ${demo.apiKey}"`,
    '',
    accountReady ? dim('  Ctrl-C stops everything.') : `  ${red('the demo account did not appear within 15 s; see .data/logs/ledger-service.log')}  ${dim('Ctrl-C stops everything.')}`,
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');
}

/** An app that dies on its own takes the stack down with a pointer to its log. */
function watchApps(stack) {
  for (const app of stack.apps.values()) {
    app.process.once('exit', (code, signal) => {
      if (shuttingDown) return;
      const tail = app.output.slice(-10).join('\n');
      void shutdown(1, `${red(`${app.instance} exited (${signal ?? `code ${code}`})`)}; its last lines:\n${tail}\n(full log: ${relative(process.cwd(), join(logDir, `${app.instance}.log`))})`);
    });
  }
}

main().catch((error) => {
  const message = error instanceof Fatal ? error.message : (error?.stack ?? String(error));
  process.stderr.write(`\n${red('✖')} ${message}\n`);
  void shutdown(1);
});
