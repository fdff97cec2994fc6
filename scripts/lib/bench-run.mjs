// `pnpm bench`: GET /v1/accounts/{id} through the full stack (gateway → ledger over BullMQ →
// PostgreSQL) against a bare Fastify + pg handler doing the same read, in the same run, with
// autocannon at 32 connections. Then the full stack again at half its measured maximum rate,
// where the p99 target applies. Then faucet credits (POST /v1/transactions/faucet) through the
// full stack against the same posting done by bare pg clients, the same number of clients on
// the same server. Then quotes (scripts/lib/bench-quotes.mjs): quote + execute pairs per second
// through the full stack against the faucet's full-stack credits of the same run. Then webhooks
// (scripts/lib/bench-webhooks.mjs): signed deliveries per second from the webhook-delivery-worker
// to a local receiver against raw BullMQ jobs on the same Redis, and commit-to-delivery latency
// at a constant faucet rate. Between the faucet and the quotes, the standings section: how long a
// verification change takes to reach the ledger's decisions (its own copy of the standing). Last,
// the replicas section: the faucet and the read path on a stack of one process of each and on one
// of two (two gateways), with the apps' CPU per operation. Not part of the test command.
// BENCH_ONLY=webhooks runs the webhook sections alone (BENCH_ONLY=quotes,faucet: those two).
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { alternate, CpuTally, cpuOf, cpuShares, footprint, idleCpu, mergeRuns, percentiles, settle, SLICES, WARMUP_SECONDS } from './bench-measure.mjs';
import { benchQuotes } from './bench-quotes.mjs';
import { benchWebhooks } from './bench-webhooks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { startApps, freePort } = require(join(root, 'libs/devstack/dist'));
const devstack = require(join(root, 'libs/devstack/dist'));
const { dropDatabase, ensureDatabase, applyMigrations } = require(join(root, 'libs/persistence/dist'));

const CONNECTIONS = 32;
const FAUCET_CLIENTS = Number(process.env.BENCH_FAUCET_CLIENTS ?? 16);
const QUOTE_CLIENTS = Number(process.env.BENCH_QUOTE_CLIENTS ?? FAUCET_CLIENTS);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const IDLE_AFTER_LOAD_MS = 15000;
/** The sections to run, all by default, always in this order. */
const SECTION_NAMES = ['accounts', 'faucet', 'standings', 'quotes', 'webhooks', 'replicas'];
/** Verification changes the standings section measures. */
const STANDING_CHANGES = 20;
const SECTIONS = new Set((process.env.BENCH_ONLY ?? SECTION_NAMES.join(',')).split(',').map((name) => name.trim()));
for (const name of SECTIONS) if (!SECTION_NAMES.includes(name)) throw new Error(`BENCH_ONLY: no section ${name} (${SECTION_NAMES.join(', ')})`);

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
  return { requests: { average: latencies.length / seconds }, latency: percentiles(latencies), latencies, seconds, non2xx, errors };
}

async function main() {
  const infra = devstack.ensureInfrastructure
    ? await devstack.ensureInfrastructure({ root })
    : { databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pfs', redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', stop: async () => {} };
  const url = new URL(infra.databaseUrl);
  url.pathname = '/pfs_bench';
  const databaseUrl = url.toString();
  // Every run starts from an empty database, as a fresh clone's first run does, so its figures
  // do not depend on what earlier runs left (thousands of rows each).
  await dropDatabase(databaseUrl);
  await ensureDatabase(databaseUrl);
  await applyMigrations(databaseUrl, join(root, 'prisma/migrations'));

  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: infra.redisUrl,
    QUEUE_PREFIX: `bench-${process.pid}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    // The webhook receivers are plain http on 127.0.0.1 (refused otherwise, and in production).
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
  };
  const stack = await startApps({ root, env, ports: 'random', readyTimeoutMs: 60000 });
  let baseline;
  const createOrganization = (name) => approvedOrganization(env, name);
  const { Client } = require('pg');
  const observer = new Client({ connectionString: databaseUrl });
  await observer.connect();
  const database = new URL(databaseUrl).pathname.slice(1);
  /** Idle memory and connections, printed now (after start-up) and again after the load. */
  const reportFootprint = async (when) => {
    await settle(stack.apps);
    const seen = await footprint(stack.apps, (sql, params) => observer.query(sql, params), database);
    console.log(`\nIdle ${when}: apps' RSS ${seen.rss} (target ≤ 1024 MB in all); PostgreSQL connections open to the database: ${seen.connections} (target ≤ 40)`);
    console.log(`apps' CPU at rest: ${await idleCpu(stack.apps)}`);
  };
  try {
    await reportFootprint('after start-up');
    if (SECTIONS.has('accounts') || SECTIONS.has('faucet') || SECTIONS.has('standings') || SECTIONS.has('quotes')) {
      const created = createOrganization('Bench');
      await accountVisible(created);
      if (SECTIONS.has('accounts')) await benchAccounts(created);
      if (SECTIONS.has('faucet')) await benchFaucet(stack, created.apiKey, databaseUrl);
      if (SECTIONS.has('standings')) await benchStandingLag(stack, createOrganization('Bench standings'));
      if (SECTIONS.has('quotes')) {
        await benchQuotes({
          stack,
          apiKey: created.apiKey,
          databaseUrl,
          clients: QUOTE_CLIENTS,
          seconds: DURATION,
          // The pairs' comparison: faucet credits by as many clients, measured in slices alternating with the pairs'.
          faucetClients: (clients) => faucetClients(stack, created.apiKey, databaseUrl, clients, 'Bench quotes faucet'),
        });
      }
    }
    if (SECTIONS.has('webhooks')) {
      await benchWebhooks({ root, stack, redisUrl: infra.redisUrl, queuePrefix: env.QUEUE_PREFIX, createOrganization, seconds: DURATION });
    }
    await reportFootprint('after the load');
    // V8 returns the heap a load grew once a process has been idle a few seconds (its memory
    // reducer): what an idle stack holds is this second figure.
    await new Promise((resolve) => setTimeout(resolve, IDLE_AFTER_LOAD_MS));
    await reportFootprint(`after the load and ${IDLE_AFTER_LOAD_MS / 1000} s idle`);
    if (SECTIONS.has('replicas')) {
      // Its own stacks: the one above would take CPU from them.
      await stack.stop();
      await benchReplicas(env);
    }
  } finally {
    await observer.end();
    baseline?.kill('SIGTERM');
    await stack.stop();
    await infra.stop?.();
  }

  /** Waits until the new organization's primary account reads through the gateway. */
  async function accountVisible(created) {
    const headers = { authorization: `Bearer ${created.apiKey}` };
    for (let i = 0; ; i++) {
      const response = await fetch(`${stack.gatewayUrl}/v1/accounts/${created.accountId}`, { headers });
      if (response.status === 200) return;
      if (i > 100) throw new Error(`account never appeared: ${response.status} ${await response.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function benchAccounts(created) {
    const headers = { authorization: `Bearer ${created.apiKey}` };
    const target = `${stack.gatewayUrl}/v1/accounts/${created.accountId}`;
    const basePort = await freePort();
    baseline = spawn(process.execPath, [join(root, 'scripts/bench-baseline.mjs')], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(basePort), BENCH_ORGANIZATION_ID: created.organizationId },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((resolve) => baseline.stdout.once('data', resolve));
    const baselineUrl = `http://127.0.0.1:${basePort}/v1/accounts/${created.accountId}`;

    const load = (url) => (seconds) => autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
    // Warm both paths (JIT, pools, caches) before measuring.
    await autocannon({ url: baselineUrl, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers });
    await autocannon({ url: target, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers });

    // Each side's slices as one run: requests summed over their seconds; p50 and p99 the
    // highest of the slices' (autocannon gives percentiles, not the latencies).
    const maxima = (runs) => ({
      requests: { average: runs.reduce((sum, run) => sum + run.requests.total, 0) / DURATION },
      latency: { p50: Math.max(...runs.map((run) => run.latency.p50)), p99: Math.max(...runs.map((run) => run.latency.p99)) },
      non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
    });
    const bareTally = new CpuTally(new Map());
    const fullTally = new CpuTally(stack.apps);
    const maxRuns = await alternate(
      (seconds) => bareTally.around(() => load(baselineUrl)(seconds)),
      (seconds) => fullTally.around(() => load(target)(seconds)),
      DURATION,
    );
    const bare = maxima(maxRuns.a);
    const full = maxima(maxRuns.b);
    const halfRate = Math.max(1, Math.floor(full.requests.average / 2));
    const bareHalfRate = Math.max(1, Math.floor(bare.requests.average / 2));
    // At a constant rate every latency is kept, so the slices' percentiles are exact.
    const atRate = (runs) => {
      const latencies = runs.flatMap((run) => run.latencies);
      return { requests: { average: latencies.length / DURATION }, latency: percentiles(latencies), non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0), errors: runs.reduce((sum, run) => sum + run.errors, 0) };
    };
    const halfRuns = await alternate(
      (seconds) => constantRate(baselineUrl, headers, bareHalfRate, seconds),
      (seconds) => constantRate(target, headers, halfRate, seconds),
      DURATION,
    );
    const bareHalf = atRate(halfRuns.a);
    const half = atRate(halfRuns.b);

    const row = (name, r) => ({
      run: name,
      'req/s': Math.round(r.requests.average),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    });
    console.log(`\nGET /v1/accounts/{id}, ${CONNECTIONS} connections, ${DURATION} s per run in ${SLICES} slices alternating with bare's, ${new Date().toISOString()}`);
    console.table([
      row('bare Fastify + pg, max', bare),
      row('full stack (gateway → ledger), max', full),
      row(`bare at ${bareHalfRate} req/s (constant rate)`, bareHalf),
      row(`full stack at ${halfRate} req/s (constant rate)`, half),
    ]);
    const ratio = full.requests.average / bare.requests.average;
    console.log(`ratio full/bare: ${ratio.toFixed(2)} (target ≥ 0.5)`);
    console.log(`p99 at half the maximum rate: ${half.latency.p99} ms, bare's at its half rate ${bareHalf.latency.p99} ms: ${(half.latency.p99 / bareHalf.latency.p99).toFixed(2)} × (target ≤ 1.5 ×)`);
    console.log(`apps' CPU ms per full-stack GET: ${fullTally.shares(full.requests.average * DURATION)}`);
    console.log(`the whole machine's CPU ms per bare GET: ${bareTally.machinePer(bare.requests.average * DURATION)}`);
    if (full.non2xx || bare.non2xx) console.log('warning: some responses were not 2xx');
  }
}

/** An approved organization made by the operator CLI on the stack of `env`: { organizationId, accountId, apiKey }. */
function approvedOrganization(env, name) {
  return JSON.parse(
    execFileSync(process.execPath, [join(root, 'apps/organization-service/dist/cli.js'), 'org:create', '--name', name, '--approved', '--json'], {
      cwd: root,
      env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    }).toString(),
  );
}

/** Runs `clients` closed loops of `once(client)` for `seconds`; counts successes and latencies. */
async function closedLoop(clients, seconds, once) {
  const latencies = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        const started = performance.now();
        if (await once(client)) latencies.push(performance.now() - started);
        else failures += 1;
      }
    }),
  );
  return { count: latencies.length, seconds, perSecond: latencies.length / seconds, ...percentiles(latencies), failures, latencies };
}

/** A JSON call to the gateway for setting up a measurement: anything but 2xx throws. */
function gatewayApi(gatewayUrl, apiKey) {
  return async (method, path, body) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
}

/** `count` new accounts of the caller's organization, USDC activated on each: their ids. */
async function usdcAccounts(api, count, name) {
  const accounts = [];
  for (let index = 0; index < count; index++) {
    const account = await api('POST', '/v1/accounts', { name: `${name} ${index}` });
    await api('POST', '/v1/funding-methods', { asset: 'USDC', accountId: account.accountId });
    accounts.push(account.accountId);
  }
  return accounts;
}

/** One faucet credit of 1.25 USDC through the full stack: `post(accountId)` resolves whether it answered 200. */
function faucetPoster(gatewayUrl, apiKey, agent) {
  const target = new URL(`${gatewayUrl}/v1/transactions/faucet`);
  return (accountId) =>
    new Promise((resolve) => {
      const body = JSON.stringify({ accountId, asset: 'USDC', amount: '1.25', chainName: 'ETHEREUM_SEPOLIA' });
      const request = http.request(
        {
          agent,
          method: 'POST',
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode === 200));
        },
      );
      request.on('error', () => resolve(false));
      request.end(body);
    });
}

/**
 * Full-stack faucet credits by `clients` clients, each on a new account of its own (`accounts`):
 * `warm()` loads them for WARMUP_SECONDS, `slice(seconds)` measures (closedLoop's figures),
 * `check()` verifies the books of every credit answered 200, warm-up included (see checkFaucetBooks).
 */
async function faucetClients(stack, apiKey, databaseUrl, clients, name) {
  const accounts = await usdcAccounts(gatewayApi(stack.gatewayUrl, apiKey), clients, name);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const poster = faucetPoster(stack.gatewayUrl, apiKey, agent);
  const credited = new Map();
  const post = async (accountId) => {
    const ok = await poster(accountId);
    if (ok) credited.set(accountId, (credited.get(accountId) ?? 0) + 1);
    return ok;
  };
  return {
    accounts,
    warm: () => closedLoop(accounts, WARMUP_SECONDS, post),
    slice: (seconds) => closedLoop(accounts, seconds, post),
    check: () => checkFaucetBooks(databaseUrl, accounts, credited),
    close: () => agent.destroy(),
  };
}

/**
 * Faucet credits per second: through the full stack (gateway → ledger: command log, account and
 * funding-method checks, journal entry, transaction, outbox event, one database transaction)
 * against bare pg clients posting the same double entry (lock the balance rows in order, insert
 * the journal and its postings, update the balance, commit). Each client works its own account.
 * The two are measured in alternating slices (see alternate), the apps let settle before each.
 */
async function benchFaucet(stack, apiKey, databaseUrl) {
  const { Client } = require('pg');
  // One account per client, USDC activated on each.
  const stackSide = await faucetClients(stack, apiKey, databaseUrl, FAUCET_CLIENTS, 'Bench');
  const bareAccounts = await usdcAccounts(gatewayApi(stack.gatewayUrl, apiKey), FAUCET_CLIENTS, 'Bench bare');

  const pgClients = await Promise.all(
    bareAccounts.map(async (accountId) => {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      // Every posting names a transaction of its own account: one per bare client, written before the run.
      const transactionId = `txn_bench${process.pid.toString(16)}${accountId.slice(-16)}`;
      await client.query(
        `INSERT INTO "ledger"."transactions" (id, organization_id, account_id, type, status, role, asset, amount)
         SELECT $1, organization_id, id, 'CRYPTO_PAYIN', 'COMPLETED', 'RECEIVER', 'USDC', 1.25 FROM "ledger"."accounts" WHERE id = $2`,
        [transactionId, accountId],
      );
      return { client, accountId, transactionId, sequence: 0 };
    }),
  );
  const platform = 'platform:external_deposits:USDC';
  const bare = async (worker) => {
    const { client, accountId, transactionId } = worker;
    const journalId = `jrnl_bench${process.pid.toString(16)}${(worker.sequence++).toString(16).padStart(8, '0')}${accountId.slice(-8)}`;
    try {
      await client.query('BEGIN');
      // The same double entry: the customer's balance row locked (rows in account order), the
      // journal and both postings written, the balance updated, then COMMIT.
      await client.query(`SELECT amount FROM "ledger"."balances" WHERE account_id = $1 AND asset = 'USDC' ORDER BY account_id, asset FOR UPDATE`, [accountId]);
      const updated = await client.query(
        `INSERT INTO "ledger"."balances" (account_id, asset, amount) VALUES ($1, 'USDC', 1.25)
         ON CONFLICT (account_id, asset) DO UPDATE SET amount = "balances".amount + 1.25, updated_at = now() RETURNING amount`,
        [accountId],
      );
      await client.query(
        `WITH journal AS (INSERT INTO "ledger"."journals" (id, kind, transaction_id) VALUES ($1, 'BENCH', $5) RETURNING id)
         INSERT INTO "ledger"."postings" (journal_id, account_id, platform_account_id, asset, amount, balance_after, transaction_id)
         SELECT journal.id, line.account_id, line.platform_account_id, 'USDC', line.amount, line.balance_after, $5 FROM journal,
           (VALUES ($2::text, NULL::text, 1.25::numeric, $3::numeric), (NULL, $4, -1.25, NULL)) AS line(account_id, platform_account_id, amount, balance_after)`,
        [journalId, accountId, updated.rows[0].amount, platform, transactionId],
      );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      console.error(`bare posting failed: ${error.message}`);
      return false;
    }
  };

  // Warm both paths (JIT, pools, the platform account), then measure.
  await stackSide.warm();
  await closedLoop(pgClients, WARMUP_SECONDS, bare);
  const tally = new CpuTally(stack.apps);
  const bareTally = new CpuTally(new Map());
  const runs = await alternate(
    (seconds) => bareTally.around(() => closedLoop(pgClients, seconds, bare)),
    (seconds) => tally.around(() => stackSide.slice(seconds)),
    DURATION,
    { before: () => settle(stack.apps) },
  );
  const bareRun = mergeRuns(runs.a);
  const stackRun = mergeRuns(runs.b);
  for (const { client } of pgClients) await client.end();
  stackSide.close();

  const row = (name, r) => ({ run: name, 'credits/s': Math.round(r.perSecond), 'p50 ms': r.p50, 'p99 ms': r.p99, failures: r.failures });
  console.log(`\nFaucet credits, ${FAUCET_CLIENTS} clients (each on its own account), ${DURATION} s per run in ${SLICES} slices alternating with bare's`);
  console.table([row('bare pg posting', bareRun), row('full stack POST /v1/transactions/faucet', stackRun)]);
  console.log(`ratio full/bare: ${(stackRun.perSecond / bareRun.perSecond).toFixed(2)} (target ≥ 0.3)`);
  console.log(`apps' CPU ms per full-stack credit: ${tally.shares(stackRun.count)}`);
  console.log(`the whole machine's CPU ms per bare posting: ${bareTally.machinePer(bareRun.count)}`);
  await stackSide.check();
}

/**
 * How long a change of standing takes to reach the ledger's decisions: the organization is put
 * ON_HOLD, then faucet credits are asked one after another until the first refusal (403); the
 * time from the change's 200 to that refusal is the lag. Approved again after each, and served at
 * once (a refusal double-checks the organization service). The README states ≤ 1 s at p99.
 */
async function benchStandingLag(stack, created) {
  const api = gatewayApi(stack.gatewayUrl, created.apiKey);
  await api('POST', '/v1/funding-methods', { asset: 'USDC', accountId: created.accountId });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = faucetPoster(stack.gatewayUrl, created.apiKey, agent);
  const verify = (body) => api('POST', `/v1/sandbox/organizations/${created.organizationId}/verification`, body);
  const lags = [];
  for (let change = 0; change < STANDING_CHANGES; change++) {
    await verify({ status: 'ON_HOLD', reason: `Bench check ${change}` });
    const changed = performance.now();
    while (await post(created.accountId)) {
      if (performance.now() - changed > 60_000) throw new Error('standings: a verification change did not reach the ledger within 60 s');
    }
    lags.push(performance.now() - changed);
    await verify({ status: 'APPROVED' });
    if (!(await post(created.accountId))) throw new Error('standings: a just-approved organization was refused');
  }
  agent.destroy();
  const { p50, p99 } = percentiles(lags);
  console.log(`\nStanding lag: a verification change reaches the faucet's decisions, ${STANDING_CHANGES} changes`);
  console.log(`p50 ${p50} ms, p99 ${p99} ms, slowest ${Math.round(Math.max(...lags))} ms (target p99 ≤ 1000 ms)`);
}

/**
 * After the faucet section: every answered credit is in the books exactly once (each account's
 * balance is 1.25 × its 200 answers, with as many CRYPTO_PAYIN transactions), and the ledger's
 * invariants hold (every journal entry balanced, balances equal to their postings). A miss fails
 * the bench.
 */
async function checkFaucetBooks(databaseUrl, accounts, credited) {
  const { Big } = require(join(root, 'libs/contracts/dist'));
  const { ledgerInvariantViolations } = require(join(root, 'libs/testing/dist'));
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const problems = [];
  try {
    const { rows } = await client.query(
      `SELECT a.id, COALESCE(b.amount::text, '0') AS amount,
         (SELECT count(*) FROM "ledger"."transactions" t WHERE t.account_id = a.id AND t.type = 'CRYPTO_PAYIN')::int AS credits
       FROM "ledger"."accounts" a LEFT JOIN "ledger"."balances" b ON b.account_id = a.id AND b.asset = 'USDC'
       WHERE a.id = ANY($1)`,
      [accounts],
    );
    for (const row of rows) {
      const answered = credited.get(row.id) ?? 0;
      if (row.credits !== answered) problems.push(`${row.id}: ${row.credits} credits stored, ${answered} answered 200`);
      if (!new Big(row.amount).eq(new Big('1.25').times(answered))) problems.push(`${row.id}: balance ${row.amount}, expected 1.25 × ${answered}`);
    }
    if (rows.length !== accounts.length) problems.push(`${accounts.length - rows.length} accounts missing`);
  } finally {
    await client.end();
  }
  problems.push(...(await ledgerInvariantViolations(databaseUrl)));
  const total = [...credited.values()].reduce((sum, count) => sum + count, 0);
  if (problems.length) {
    console.log(`faucet books: ${problems.length} problems\n  ${problems.slice(0, 20).join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(`faucet books exact: ${total} credits answered 200, each stored once, balances and journal balanced`);
  }
}

/**
 * What a second process of each costs on this machine: the faucet (FAUCET_CLIENTS clients) and
 * `GET /v1/accounts/{id}` (CONNECTIONS connections) on a stack of one process of each, then on one
 * of two (two gateways behind the local balancer), each with the apps' CPU per operation. On two
 * cores a second replica buys no throughput; what shows is the cost of spreading the same work
 * over more processes.
 */
async function benchReplicas(baseEnv) {
  const rows = [];
  for (const replicas of [1, 2]) {
    const env = { ...baseEnv, QUEUE_PREFIX: `${baseEnv.QUEUE_PREFIX}-r${replicas}` };
    const replicaStack = await startApps({ root, env, ports: 'random', replicas, readyTimeoutMs: 90000 });
    try {
      const created = approvedOrganization(env, `Bench replicas ${replicas}`);
      const credits = await faucetClients(replicaStack, created.apiKey, env.DATABASE_URL, FAUCET_CLIENTS, `Bench replicas ${replicas}`);
      await credits.warm();
      await settle(replicaStack.apps);
      const faucetTally = new CpuTally(replicaStack.apps);
      const run = await faucetTally.around(() => credits.slice(DURATION));
      const faucet = { ...run, cpu: faucetTally.shares(run.count) };
      credits.close();
      const target = `${replicaStack.gatewayUrl}/v1/accounts/${credits.accounts[0]}`;
      const headers = { authorization: `Bearer ${created.apiKey}` };
      await autocannon({ url: target, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers });
      await settle(replicaStack.apps);
      const before = cpuOf(replicaStack.apps);
      const read = await autocannon({ url: target, connections: CONNECTIONS, duration: DURATION, headers });
      const readCpu = cpuShares(before, cpuOf(replicaStack.apps), read.requests.total);
      rows.push({ replicas, faucet, read, readCpu });
    } finally {
      await replicaStack.stop();
    }
  }
  console.log(`\nOne process of each against two (two gateways behind the local balancer), ${DURATION} s per run`);
  console.table(
    rows.map(({ replicas, faucet, read }) => ({
      'processes of each': replicas,
      'faucet credits/s': Math.round(faucet.perSecond),
      'faucet p99 ms': faucet.p99,
      'GET account req/s': Math.round(read.requests.average),
      'GET p99 ms': read.latency.p99,
      'non-2xx': faucet.failures + read.non2xx,
    })),
  );
  for (const { replicas, faucet, readCpu } of rows) {
    console.log(`${replicas} of each: apps' CPU ms per faucet credit: ${faucet.cpu}`);
    console.log(`${replicas} of each: apps' CPU ms per GET: ${readCpu}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
