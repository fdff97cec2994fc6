// The webhook sections of `pnpm bench`, called by scripts/lib/bench-run.mjs on its running
// stack (started with WEBHOOK_ALLOW_INSECURE_URLS=true, so a receiver on http://127.0.0.1 is
// accepted). Receivers are node:http servers in this process answering 200 at once.
// BENCH_WEBHOOK_ENDPOINTS (20): endpoints per credit in the throughput run; BENCH_WEBHOOK_CREDITS
// (300): credits whose deliveries are counted; BENCH_WEBHOOK_RATE (100): faucet calls/s of the
// latency run.
import http from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alternate, CpuTally, cpuOf, cpuShares, percentiles, SLICES } from './bench-measure.mjs';

/** Defaults of the worker's own settings (webhook-delivery-worker.settings.ts), unless set in the env. */
const WORKER_CONCURRENCY = Number(process.env.WEBHOOK_WORKER_CONCURRENCY ?? 64);
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 20);
const CREDITS = Number(process.env.BENCH_WEBHOOK_CREDITS ?? 300);
const LATENCY_RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 100);
/** Faucet credits lock their account's balance row: spread over this many accounts, none waits on another. */
const ACCOUNTS = 16;
const FAUCET_BODY = { asset: 'USDC', amount: '1.25', chainName: 'ETHEREUM_SEPOLIA' };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something truthy; throws after `timeoutMs`. */
async function until(check, timeoutMs, what) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * A partner's receiver: records every request (path, headers, body, arrival time) and answers
 * 200 with nothing else done on the way, so the receiver is never what limits the worker.
 * Signatures are checked after the measurement, from what was recorded.
 */
async function startReceiver() {
  const receiver = {
    received: [],
    onDelivery: undefined,
    server: undefined,
    url: undefined,
  };
  receiver.server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const delivery = { path: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at };
      receiver.received.push(delivery);
      receiver.onDelivery?.(delivery);
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  receiver.server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${receiver.server.address().port}`;
  return receiver;
}

/**
 * Open-loop calls at a constant arrival rate, like bench-run.mjs's constantRate: call `index` is
 * issued at `index / rate` s whatever the earlier ones did.
 */
async function openLoop(rate, seconds, fire) {
  const total = Math.floor(rate * seconds);
  const started = performance.now();
  const pending = [];
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    while (sent < due) pending.push(fire(sent++));
    if (sent < total) await sleep(1);
  }
  await Promise.all(pending);
  return total;
}

/**
 * Webhook throughput and latency through the full stack.
 *
 * Throughput: signed deliveries per second from the webhook-delivery-worker to a local receiver,
 * against raw BullMQ on the same Redis (a Queue filled with addBulk while a Worker with a no-op
 * processor and the worker's concurrency drains it, in one process, no HTTP and no database).
 * Each faucet credit of an organization with `ENDPOINTS` endpoints fans out to that many
 * deliveries. The worker's event queue is paused (BullMQ Queue.pause, the processes keep
 * running) while the credits are made, then resumed: from there on only the worker is at work
 * (record each message and its deliveries in PostgreSQL, queue the attempts, look the endpoint
 * up in the webhook-delivery service, sign, POST, record the attempt), and the rate is counted at
 * the receiver from the first delivery to the last. Every delivery is then verified with the
 * `standardwebhooks` package, and each app's CPU time over the window is printed per delivery.
 *
 * Latency: commit to delivery (the faucet call has answered → the receiver has the event whose
 * `data.transaction_id` it returned), for faucet calls at a constant `LATENCY_RATE` per second
 * (open loop) for `seconds`, spread over `ACCOUNTS` accounts of one organization, one endpoint.
 */
export async function benchWebhooks({ root, stack, redisUrl, queuePrefix, createOrganization, seconds }) {
  const gatewayUrl = stack.gatewayUrl;
  const workerRequire = createRequire(join(root, 'apps/webhook-delivery-worker/package.json'));
  const { Queue, Worker } = workerRequire('bullmq');
  const { Redis } = workerRequire('ioredis');
  const { Webhook } = workerRequire('standardwebhooks');

  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const call = (apiKey, method, path, body) =>
    new Promise((resolve, reject) => {
      const target = new URL(`${gatewayUrl}${path}`);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = http.request(
        {
          agent,
          method,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          headers: { authorization: `Bearer ${apiKey}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode, text, at: performance.now() });
          });
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  const api = async (apiKey, method, path, body) => {
    const answer = await call(apiKey, method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text);
  };
  /** An approved organization with `ACCOUNTS` accounts (its primary one first), USDC activated on each. */
  const fundedOrganization = async (name) => {
    const org = await createOrganization(name);
    await until(async () => (await call(org.apiKey, 'GET', `/v1/accounts/${org.accountId}`)).status === 200, 60_000, `account of ${name}`);
    org.accounts = [org.accountId];
    while (org.accounts.length < ACCOUNTS) org.accounts.push((await api(org.apiKey, 'POST', '/v1/accounts', { name: `${name} ${org.accounts.length}` })).accountId);
    for (const accountId of org.accounts) await api(org.apiKey, 'POST', '/v1/funding-methods', { asset: 'USDC', accountId });
    org.next = 0;
    return org;
  };
  /** Registers `url` for the organization's faucet credits; answers the endpoint's signing secret. */
  const register = async (org, url) => {
    const endpoint = await api(org.apiKey, 'POST', '/v1/webhooks/endpoints', { url, eventTypes: ['transaction.status.updated'] });
    return (await api(org.apiKey, 'GET', `/v1/webhooks/endpoints/${endpoint.id}/secret`)).key;
  };
  /** One faucet credit, on the organization's accounts in turn. */
  const faucet = (org) => call(org.apiKey, 'POST', '/v1/transactions/faucet', { accountId: org.accounts[org.next++ % org.accounts.length], ...FAUCET_BODY });
  /** `count` faucet credits, `clients` at a time; throws on any that fails. */
  const credits = async (org, count, clients = ACCOUNTS) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < count) {
          next += 1;
          const answer = await faucet(org);
          if (answer.status !== 200) throw new Error(`faucet: ${answer.status} ${answer.text}`);
        }
      }),
    );
  };

  const receiver = await startReceiver();
  // A connection handed to BullMQ is not closed by it: disconnected below, or the process stays up.
  const eventConnection = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const eventQueue = new Queue('webhook-delivery-worker-events', { connection: eventConnection, prefix: queuePrefix });
  const load = loadavg()[0].toFixed(2);
  try {
    // ---- Throughput: raw BullMQ and the worker's signed deliveries, in alternating slices.
    const org = await fundedOrganization('Bench webhooks');
    const secrets = [];
    for (let index = 0; index < ENDPOINTS; index++) secrets.push(await register(org, `${receiver.url}/hooks/${index}`));
    // Warm the path (JIT, pools, endpoint cache, keep-alive connections to the receiver).
    await credits(org, 10);
    await until(() => receiver.received.length >= 10 * ENDPOINTS, 60_000, 'the warm-up deliveries');
    await sleep(500);
    receiver.received.length = 0;

    // Every credit's webhook-message.created is in the worker's queue before it is resumed: the
    // events, each in a job of its own or several in one of the relay's 'events.batch' jobs.
    const queued = async () => {
      const jobs = await eventQueue.getJobs(['wait', 'paused', 'prioritized', 'delayed', 'active']);
      return jobs.reduce((sum, job) => sum + (job.name === 'events.batch' ? job.data.events.length : 1), 0);
    };
    const tally = new CpuTally(stack.apps);
    /** `count` credits made while the worker's queue is paused, then their deliveries drained. */
    const drain = async (count) => {
      await eventQueue.pause();
      await credits(org, count);
      await until(async () => (await queued()) >= count, 60_000, `${count} webhook-message.created events`);
      const expected = count * ENDPOINTS;
      return tally.around(async () => {
        await eventQueue.resume();
        let last = 0;
        let lastSeenAt = performance.now();
        await until(
          () => {
            if (receiver.received.length !== last) [last, lastSeenAt] = [receiver.received.length, performance.now()];
            // Stop early if nothing has arrived for 15 s (an attempt's timeout): report what came.
            return receiver.received.length >= expected || performance.now() - lastSeenAt > 15_000;
          },
          300_000,
          `${expected} deliveries`,
        );
        const drained = receiver.received.splice(0);
        if (drained.length < 2) throw new Error(`only ${drained.length} of ${expected} deliveries arrived`);
        return { deliveries: drained, count: drained.length, windowMs: drained.at(-1).at - drained[0].at };
      });
    };
    // At least 20 000 raw jobs in all, so each window lasts a second or more.
    const rawJobs = Math.ceil(Math.max(20_000, ENDPOINTS * CREDITS) / SLICES);
    const sliceCredits = Math.ceil(CREDITS / SLICES);
    const runs = await alternate(
      () => rawBullmq({ Queue, Worker, Redis, redisUrl, queuePrefix, jobs: rawJobs, batch: ENDPOINTS }),
      () => drain(sliceCredits),
      seconds, // unused by either side: a slice is a count of jobs or of credits, not a time
    );
    // Each side over its windows together, its rate from each window's first completion to its last.
    const joined = (windows) => {
      const count = windows.reduce((sum, w) => sum + w.count, 0);
      const windowMs = windows.reduce((sum, w) => sum + w.windowMs, 0);
      return { count, windowMs, perSecond: ((count - windows.length) * 1000) / windowMs };
    };
    const raw = joined(runs.a);
    const { windowMs, perSecond: deliveryRate } = joined(runs.b);
    const deliveries = runs.b.flatMap((w) => w.deliveries);
    const expected = sliceCredits * SLICES * ENDPOINTS;
    const drainCpu = tally.shares(deliveries.length);
    const unique = new Set(deliveries.map((delivery) => `${delivery.path} ${delivery.headers['hook-id']}`)).size;
    let verified = 0;
    for (const delivery of deliveries) {
      const secret = secrets[Number(delivery.path.split('/').at(-1))];
      try {
        new Webhook(secret).verify(delivery.body, delivery.headers);
        verified += 1;
      } catch {
        // counted as not verified
      }
    }

    const rawRow = { run: `raw BullMQ: addBulk × ${ENDPOINTS} + no-op Worker (concurrency ${WORKER_CONCURRENCY})`, count: raw.count, 'per s': Math.round(raw.perSecond), 'window s': (raw.windowMs / 1000).toFixed(2) };
    const workerRow = { run: `webhook-delivery-worker → receiver, ${ENDPOINTS} endpoints`, count: deliveries.length, 'per s': Math.round(deliveryRate), 'window s': (windowMs / 1000).toFixed(2) };
    console.log(`\nWebhook throughput, ${sliceCredits * SLICES} faucet credits × ${ENDPOINTS} endpoints, backlog drained by the worker, in ${SLICES} slices alternating with raw BullMQ's, 1-minute load average ${load} before it started`);
    console.table([rawRow, workerRow]);
    console.log(`ratio deliveries/raw jobs: ${(deliveryRate / raw.perSecond).toFixed(2)} (target ≥ 0.2)`);
    console.log(`deliveries: ${deliveries.length} of ${expected} expected, ${unique} distinct (endpoint, hook-id), ${verified} verified by standardwebhooks`);
    // Every delivery accounted for exactly: each (endpoint, event) once, each signature valid.
    if (deliveries.length !== expected || unique !== expected || verified !== expected) {
      console.log(`webhook deliveries: not exact (${deliveries.length} received, ${unique} distinct, ${verified} verified, ${expected} expected)`);
      process.exitCode = 1;
    }
    console.log(`apps' CPU ms per delivery while the backlog drained: ${drainCpu}`);

    // ---- Latency: commit (the faucet call answered) → delivered, one endpoint, open loop.
    const single = await fundedOrganization('Bench webhook latency');
    await register(single, `${receiver.url}/latency`);
    const arrivals = new Map();
    receiver.onDelivery = (delivery) => {
      const transactionId = JSON.parse(delivery.body).data?.transaction_id;
      if (transactionId && !arrivals.has(transactionId)) arrivals.set(transactionId, delivery.at);
    };
    await credits(single, 20);
    await until(() => arrivals.size >= 20, 30_000, 'the warm-up deliveries');
    arrivals.clear();
    const latencyCpuBefore = cpuOf(stack.apps);
    const returned = new Map();
    const failures = new Map();
    const fail = (reason) => failures.set(reason, (failures.get(reason) ?? 0) + 1);
    const faucetLatencies = [];
    const sent = await openLoop(LATENCY_RATE, seconds, async () => {
      const started = performance.now();
      try {
        const answer = await faucet(single);
        if (answer.status !== 200) return fail(`${answer.status} ${/"code":"([a-z_]+)"/.exec(answer.text)?.[1] ?? ''}`.trim());
        faucetLatencies.push(answer.at - started);
        returned.set(JSON.parse(answer.text).transactionId, answer.at);
      } catch (error) {
        fail(error.code ?? error.message);
      }
    });
    // Every answered credit's delivery, or none for 10 s more.
    let arrived = 0;
    let arrivedAt = performance.now();
    await until(
      () => {
        if (arrivals.size !== arrived) [arrived, arrivedAt] = [arrivals.size, performance.now()];
        return [...returned.keys()].every((id) => arrivals.has(id)) || performance.now() - arrivedAt > 10_000;
      },
      120_000,
      'the deliveries',
    ).catch(() => undefined);
    receiver.onDelivery = undefined;
    const latencyCpu = cpuShares(latencyCpuBefore, cpuOf(stack.apps), sent);
    const latencies = [...returned].filter(([id]) => arrivals.has(id)).map(([id, at]) => Math.max(0, arrivals.get(id) - at));

    const delivered = percentiles(latencies);
    const faucetTimes = percentiles(faucetLatencies);
    console.log(`\nWebhook latency, commit (faucet answered) → delivered, ${LATENCY_RATE} faucet calls/s (constant rate) for ${seconds} s over ${ACCOUNTS} accounts, one endpoint`);
    console.table([
      { run: 'faucet call → answered', count: faucetLatencies.length, 'p50 ms': faucetTimes.p50, 'p99 ms': faucetTimes.p99, missing: sent - faucetLatencies.length },
      { run: 'faucet answered → delivery received', count: latencies.length, 'p50 ms': delivered.p50, 'p99 ms': delivered.p99, missing: returned.size - latencies.length },
    ]);
    console.log(`delivered ${latencies.length} of ${sent} sent; p99 commit → delivery: ${delivered.p99} ms (target ≤ 250 ms)`);
    console.log(`apps' CPU ms per faucet credit, its call to its delivery: ${latencyCpu}`);
    if (latencies.length !== returned.size) {
      console.log(`webhook latency: ${returned.size - latencies.length} answered credits were never delivered`);
      process.exitCode = 1;
    }
    if (failures.size) console.log(`faucet calls that failed: ${[...failures].map(([reason, count]) => `${reason} × ${count}`).join(', ')}`);
    if (faucetTimes.p99 > 1000) console.log(`warning: the faucet did not keep up with ${LATENCY_RATE} calls/s (p99 over 1 s): the stack was saturated while the deliveries were timed`);
  } finally {
    receiver.onDelivery = undefined;
    // Never leave the worker's queue paused.
    await eventQueue.resume().catch(() => undefined);
    await eventQueue.close();
    eventConnection.disconnect();
    agent.destroy();
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
  }
}

/**
 * Raw BullMQ: `jobs` jobs shaped like the worker's `deliveries.attempt` (same options) added by
 * addBulk `batch` at a time (8 batches in flight, like the worker's event consumer), while a
 * Worker with a no-op processor and the delivery worker's concurrency drains the queue. Counted
 * from the first completion to the last.
 */
async function rawBullmq({ Queue, Worker, Redis, redisUrl, queuePrefix, jobs, batch }) {
  const name = `bench-raw-${process.pid}`;
  const producer = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  const consumer = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection: producer, prefix: queuePrefix });
  const options = { removeOnComplete: true, removeOnFail: 1000, attempts: 3, backoff: { type: 'exponential', delay: 1000 } };
  const fill = async (from, count) => {
    let next = from;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < from + count) {
          const first = next;
          next = Math.min(from + count, next + batch);
          await queue.addBulk(
            Array.from({ length: next - first }, (_, offset) => ({
              name: 'deliveries.attempt',
              data: { deliveryId: `dlv_bench${first + offset}`, endpointId: `ep_bench${(first + offset) % batch}`, attemptsMade: 0, dueAt: Date.now() },
              opts: { ...options, jobId: `dlv_bench${first + offset}.0` },
            })),
          );
        }
      }),
    );
  };
  const times = [];
  let warm = 0;
  const worker = new Worker(name, async () => {}, { connection: consumer, prefix: queuePrefix, concurrency: WORKER_CONCURRENCY, autorun: false });
  worker.on('completed', () => times.push(performance.now()));
  try {
    worker.run().catch(() => undefined);
    await worker.waitUntilReady();
    // Warm up (JIT, Lua scripts loaded), then measure.
    warm = Math.min(2000, jobs);
    await fill(0, warm);
    await until(() => times.length >= warm, 60_000, 'the warm-up jobs');
    times.length = 0;
    await fill(warm, jobs);
    await until(() => times.length >= jobs, 300_000, `${jobs} raw jobs`);
  } finally {
    await worker.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    producer.disconnect();
    consumer.disconnect();
  }
  const windowMs = times.at(-1) - times[0];
  return { count: times.length, windowMs, perSecond: ((times.length - 1) * 1000) / windowMs };
}
