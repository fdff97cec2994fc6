// `pnpm bench`: GET /v1/accounts/{id} through the full stack (gateway → ledger over BullMQ →
// PostgreSQL) against a bare Fastify + pg handler doing the same read, in the same run, with
// autocannon at 32 connections. Then the full stack again at half its measured maximum rate,
// where the p99 target applies. Not part of the test command.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { startApps, freePort } = require(join(root, 'libs/devstack/dist'));
const devstack = require(join(root, 'libs/devstack/dist'));
const { ensureDatabase, applyMigrations } = require(join(root, 'libs/persistence/dist'));

const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

/**
 * Open-loop load at a constant arrival rate: requests are issued on a fixed schedule whatever
 * the answers do, and each latency counts from its scheduled start, so a stall is not hidden
 * (no coordinated omission). autocannon's own rate option sends each second's quota back to
 * back at the start of the second, which measures bursts at full load instead.
 */
async function constantRate(url, headers, rate, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = new URL(url);
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  const total = Math.floor(rate * seconds);
  const started = performance.now();
  const pending = [];
  let sent = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      while (sent < due) {
        const scheduled = started + (sent * 1000) / rate;
        sent += 1;
        pending.push(
          new Promise((done) => {
            const request = http.request(
              { agent, host: target.hostname, port: target.port, path: target.pathname, headers },
              (response) => {
                response.resume();
                response.on('end', () => {
                  if (response.statusCode < 200 || response.statusCode > 299) non2xx += 1;
                  latencies.push(performance.now() - scheduled);
                  done();
                });
              },
            );
            request.on('error', () => {
              errors += 1;
              done();
            });
            request.end();
          }),
        );
      }
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  return { requests: { average: latencies.length / seconds }, latency: { p50: at(0.5), p99: at(0.99) }, non2xx, errors };
}

function run(cmd, args) {
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
}

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) {
    run('pnpm', ['install', '--frozen-lockfile']);
    run('node', ['scripts/prisma-generate.mjs']);
    run('node_modules/.bin/turbo', ['run', 'build']);
  }
  const infra = devstack.ensureInfrastructure
    ? await devstack.ensureInfrastructure({ root })
    : { databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs', redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', stop: async () => {} };
  const url = new URL(infra.databaseUrl);
  url.pathname = '/pfs_bench';
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  await applyMigrations(databaseUrl, join(root, 'prisma/migrations'));

  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: infra.redisUrl,
    QUEUE_PREFIX: `bench-${process.pid}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
  const stack = await startApps({ root, env, ports: 'random', readyTimeoutMs: 60000 });
  let baseline;
  try {
    const created = JSON.parse(
      execFileSync(process.execPath, [join(root, 'apps/organization-service/dist/cli.js'), 'org:create', '--name', 'Bench', '--approved', '--json'], {
        cwd: root,
        env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
      }).toString(),
    );
    const headers = { authorization: `Bearer ${created.apiKey}` };
    const target = `${stack.gatewayUrl}/v1/accounts/${created.accountId}`;
    for (let i = 0; ; i++) {
      const response = await fetch(target, { headers });
      if (response.status === 200) break;
      if (i > 100) throw new Error(`account never appeared: ${response.status} ${await response.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const basePort = await freePort();
    baseline = spawn(process.execPath, [join(root, 'scripts/bench-baseline.mjs')], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(basePort), BENCH_ORGANIZATION_ID: created.organizationId },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((resolve) => baseline.stdout.once('data', resolve));
    const baselineUrl = `http://127.0.0.1:${basePort}/v1/accounts/${created.accountId}`;

    const load = (url, extra = {}) =>
      autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, ...extra });
    // Warm both paths (JIT, pools, caches) before measuring.
    await autocannon({ url: baselineUrl, connections: CONNECTIONS, duration: 2, headers });
    await autocannon({ url: target, connections: CONNECTIONS, duration: 2, headers });

    const bare = await load(baselineUrl);
    const full = await load(target);
    const halfRate = Math.max(1, Math.floor(full.requests.average / 2));
    const half = await constantRate(target, headers, halfRate, DURATION);
    const bareHalfRate = Math.max(1, Math.floor(bare.requests.average / 2));
    const bareHalf = await constantRate(baselineUrl, headers, bareHalfRate, DURATION);

    const row = (name, r) => ({
      run: name,
      'req/s': Math.round(r.requests.average),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    });
    console.log(`\nGET /v1/accounts/{id}, ${CONNECTIONS} connections, ${DURATION} s per run, ${new Date().toISOString()}`);
    console.table([
      row('bare Fastify + pg, max', bare),
      row('full stack (gateway → ledger), max', full),
      row(`bare at ${bareHalfRate} req/s (constant rate)`, bareHalf),
      row(`full stack at ${halfRate} req/s (constant rate)`, half),
    ]);
    const ratio = full.requests.average / bare.requests.average;
    console.log(`ratio full/bare: ${ratio.toFixed(2)} (target ≥ 0.5)`);
    console.log(`p99 at half the maximum rate: ${half.latency.p99} ms (target < 25 ms)`);
    if (full.non2xx || bare.non2xx) console.log('warning: some responses were not 2xx');
  } finally {
    baseline?.kill('SIGTERM');
    await stack.stop();
    await infra.stop?.();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
