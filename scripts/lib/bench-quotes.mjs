// The quotes section of `pnpm bench`, called by scripts/lib/bench-run.mjs on its running
// stack: quote + execute pairs per second through the full stack, against full-stack faucet
// credits per second by as many clients, the two measured in alternating slices.
// BENCH_QUOTE_CLIENTS (default BENCH_FAUCET_CLIENTS, 16): concurrent clients, each on its own
// account.
import http from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { alternate, CpuTally, mergeRuns, percentiles, settle, SLICES, WARMUP_SECONDS } from './bench-measure.mjs';

const require = createRequire(import.meta.url);
// Money as everywhere else in the project: big.js, exact decimals.
const { Big } = require('../../libs/contracts/dist');

/** The pair traded: sell FROM_AMOUNT USDC for EUR (USDC's smallest trade is 1). */
const FROM_ASSET = 'USDC';
const TO_ASSET = 'EUR';
const FROM_AMOUNT = '1.00';
/** Credited to each account by one faucet call before any quote: far more than a run trades. */
const FUNDING = '100000';

/**
 * Quote + execute pairs through the full stack. Each client works its own account, funded
 * with FUNDING USDC by the faucet, and loops for `seconds`: POST /v1/quotes (gateway → quote
 * service, which reads the account and the tier from its own copies, then stores the quote), then
 * POST /v1/quotes/{id}/execute (gateway → quote service, which locks the quote row and has the
 * ledger post the trade as one journal entry in its own database, then completes the quote).
 * A pair counts when both answered 2xx; its latency runs from the create's start to the
 * execute's answer. Every other answer is counted by call and status.
 *
 * `faucetClients(clients)`: the faucet credits the pairs are compared with (bench-run.mjs's
 * faucetClients: warm, slice, check, close). Pairs and credits are measured in slices alternating
 * with each other (see alternate), the apps let settle before each, so both meet the same host.
 *
 * Afterwards: every executed quote is COMPLETED with the trade it answered, there is one TRADE
 * per executed quote in the ledger, and each account holds exactly FUNDING − Σ fromAmount USDC
 * and Σ toAmount EUR of its executed quotes (big.js on the decimal strings).
 * Returns the figures; a failed check sets the exit code.
 */
export async function benchQuotes({ stack, apiKey, databaseUrl, clients, seconds, faucetClients }) {
  const { Client } = require('pg');
  const gatewayUrl = stack.gatewayUrl;
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const headers = { authorization: `Bearer ${apiKey}` };

  /** One call; resolves { status, body, ms } or { error, ms }, never rejects. */
  const call = (method, path, body) =>
    new Promise((resolve) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const target = new URL(`${gatewayUrl}${path}`);
      const started = performance.now();
      const request = http.request(
        {
          agent,
          method,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}), 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = text;
            }
            resolve({ status: response.statusCode, body: parsed, ms: performance.now() - started });
          });
        },
      );
      request.on('error', (error) => resolve({ error, ms: performance.now() - started }));
      request.end(payload);
    });
  const api = async (method, path, body) => {
    const answer = await call(method, path, body);
    if (answer.error || answer.status >= 300) throw new Error(`${method} ${path}: ${answer.error?.message ?? `${answer.status} ${JSON.stringify(answer.body)}`}`);
    return answer.body;
  };

  // One funded account per client.
  const workers = [];
  for (let index = 0; index < clients; index++) {
    const account = await api('POST', '/v1/accounts', { name: `Bench quotes ${index}` });
    await api('POST', '/v1/funding-methods', { asset: FROM_ASSET, accountId: account.accountId });
    await api('POST', '/v1/transactions/faucet', { accountId: account.accountId, asset: FROM_ASSET, amount: FUNDING, chainName: 'ETHEREUM_SEPOLIA' });
    // spent/received: exact sums of the executed quotes' amounts; trades: quote id → trade id;
    // unsettled: quotes whose execute had no 2xx answer (its outcome is not known here).
    workers.push({ accountId: account.accountId, spent: new Big(0), received: new Big(0), trades: new Map(), unsettled: [] });
  }

  const newStats = () => ({ pairs: [], creates: [], executes: [], refused: new Map(), wrongTrades: [] });
  const refuse = (stats, what, answer) => {
    const key = `${what} ${answer.error ? `error ${answer.error.code ?? answer.error.message}` : answer.status}`;
    stats.refused.set(key, (stats.refused.get(key) ?? 0) + 1);
    if (stats.refused.get(key) === 1) console.log(`first ${key}: ${answer.error?.message ?? JSON.stringify(answer.body)}`);
  };

  const pair = async (worker, stats) => {
    const created = await call('POST', '/v1/quotes', { accountId: worker.accountId, fromAsset: FROM_ASSET, toAsset: TO_ASSET, fromAmount: FROM_AMOUNT });
    if (created.error || created.status !== 201) return refuse(stats, 'create', created);
    stats.creates.push(created.ms);
    const quote = created.body;
    const executed = await call('POST', `/v1/quotes/${quote.quoteId}/execute`);
    if (executed.error || executed.status !== 200) {
      worker.unsettled.push(quote.quoteId);
      return refuse(stats, 'execute', executed);
    }
    stats.executes.push(executed.ms);
    stats.pairs.push(created.ms + executed.ms);
    const trade = executed.body;
    worker.spent = worker.spent.plus(quote.fromAmount);
    worker.received = worker.received.plus(quote.toAmount);
    worker.trades.set(quote.quoteId, trade.transactionId);
    if (trade.type !== 'TRADE' || trade.status !== 'COMPLETED' || trade.quoteId !== quote.quoteId || !new Big(trade.amount).eq(quote.fromAmount) || trade.asset !== FROM_ASSET) {
      stats.wrongTrades.push(trade);
    }
  };

  const loop = async (duration, stats) => {
    const until = performance.now() + duration * 1000;
    await Promise.all(
      workers.map(async (worker) => {
        while (performance.now() < until) await pair(worker, stats);
      }),
    );
    return stats;
  };

  // Let the earlier sections' work drain, warm both paths (JIT, pools, the platform accounts of
  // the pair), then measure.
  const credits = await faucetClients(clients);
  await settle(stack.apps);
  const warm = await loop(WARMUP_SECONDS, newStats());
  await credits.warm();
  const run = newStats();
  const pairTally = new CpuTally(stack.apps);
  const creditTally = new CpuTally(stack.apps);
  const runs = await alternate(
    (duration) => pairTally.around(() => loop(duration, run)),
    (duration) => creditTally.around(() => credits.slice(duration)),
    seconds,
    { before: () => settle(stack.apps) },
  );
  const merged = mergeRuns(runs.b);
  const faucet = { ...merged, cpu: creditTally.shares(merged.count) };
  const cpu = pairTally.shares(run.pairs.length);
  agent.destroy();
  credits.close();
  await credits.check();

  // Checks: the quotes as the quote service stored them, the trades as the ledger posted them,
  // and the balances as the API shows them.
  const problems = [];
  const accountIds = workers.map((worker) => worker.accountId);
  const expectedTrades = new Map(workers.flatMap((worker) => [...worker.trades]));
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const quotes = await db.query(`SELECT id, status, transaction_id FROM "quote"."quotes" WHERE account_id = ANY($1)`, [accountIds]);
    const statuses = new Map();
    for (const row of quotes.rows) {
      statuses.set(row.status, (statuses.get(row.status) ?? 0) + 1);
      const trade = expectedTrades.get(row.id);
      if (trade !== undefined && (row.status !== 'COMPLETED' || row.transaction_id !== trade)) {
        problems.push(`quote ${row.id} executed as ${trade} is ${row.status} with ${row.transaction_id}`);
      }
    }
    const stored = new Set(quotes.rows.map((row) => row.id));
    for (const quoteId of expectedTrades.keys()) if (!stored.has(quoteId)) problems.push(`executed quote ${quoteId} not stored`);
    console.log(`stored quotes of the run by status: ${[...statuses].map(([status, count]) => `${status} ${count}`).join(', ') || 'none'}`);

    const trades = await db.query(`SELECT id, quote_id, status FROM "ledger"."transactions" WHERE account_id = ANY($1) AND type = 'TRADE'`, [accountIds]);
    const unsettled = new Set(workers.flatMap((worker) => worker.unsettled));
    for (const row of trades.rows) {
      if (expectedTrades.get(row.quote_id) !== row.id && !unsettled.has(row.quote_id)) problems.push(`ledger TRADE ${row.id} of quote ${row.quote_id} was not answered`);
      if (row.status !== 'COMPLETED') problems.push(`ledger TRADE ${row.id} is ${row.status}`);
    }
    const tradedWithoutAnswer = trades.rows.filter((row) => unsettled.has(row.quote_id));
    if (trades.rows.length - tradedWithoutAnswer.length !== expectedTrades.size) {
      problems.push(`${trades.rows.length} ledger TRADEs (${tradedWithoutAnswer.length} of executes without a 2xx), ${expectedTrades.size} answered`);
    }
    // An execute without a 2xx answer may still have traded (a timeout after the commit): its
    // amounts count too, so the balances below are checked against what the ledger posted.
    for (const worker of workers) {
      for (const quoteId of worker.unsettled) {
        if (!tradedWithoutAnswer.some((row) => row.quote_id === quoteId)) continue;
        const row = (await db.query(`SELECT from_amount::text AS f, to_amount::text AS t FROM "quote"."quotes" WHERE id = $1`, [quoteId])).rows[0];
        worker.spent = worker.spent.plus(row.f);
        worker.received = worker.received.plus(row.t);
        problems.push(`quote ${quoteId} traded although its execute had no 2xx answer`);
      }
    }
  } finally {
    await db.end();
  }
  for (const worker of workers) {
    const account = await (await fetch(`${gatewayUrl}/v1/accounts/${worker.accountId}`, { headers })).json();
    const balance = (asset) => new Big(account.balances.find((line) => line.asset === asset)?.amount ?? '0');
    const wantFrom = new Big(FUNDING).minus(worker.spent);
    if (!balance(FROM_ASSET).eq(wantFrom)) problems.push(`${worker.accountId}: ${FROM_ASSET} ${balance(FROM_ASSET).toFixed()}, expected ${wantFrom.toFixed()}`);
    if (!balance(TO_ASSET).eq(worker.received)) problems.push(`${worker.accountId}: ${TO_ASSET} ${balance(TO_ASSET).toFixed()}, expected ${worker.received.toFixed()}`);
  }
  for (const trade of [...warm.wrongTrades, ...run.wrongTrades]) problems.push(`execute answered an unexpected trade: ${JSON.stringify(trade)}`);

  const pairs = { perSecond: run.pairs.length / seconds, ...percentiles(run.pairs) };
  const refusals = (stats, what) => [...stats.refused].filter(([key]) => key.startsWith(what)).reduce((sum, [, count]) => sum + count, 0);
  const row = (name, perSecond, latency, failures) => ({ run: name, 'per s': Math.round(perSecond * 10) / 10, 'p50 ms': latency.p50, 'p99 ms': latency.p99, 'non-2xx': failures });
  console.log(
    `\nQuote + execute pairs (${FROM_AMOUNT} ${FROM_ASSET} → ${TO_ASSET}), ${clients} clients (each on its own account), ${seconds} s per run in ${SLICES} slices alternating with faucet credits, ${new Date().toISOString()}`,
  );
  console.table([
    row('full stack POST /v1/transactions/faucet (credits)', faucet.perSecond, faucet, faucet.failures),
    row('full stack quote + execute (pairs)', pairs.perSecond, pairs, refusals(run, '')),
    row('  of which POST /v1/quotes', run.creates.length / seconds, percentiles(run.creates), refusals(run, 'create')),
    row('  of which POST /v1/quotes/{id}/execute', run.executes.length / seconds, percentiles(run.executes), refusals(run, 'execute')),
  ]);
  console.log(`ratio pairs/credits: ${(pairs.perSecond / faucet.perSecond).toFixed(2)}; API commands (two per pair) per faucet credit: ${((2 * pairs.perSecond) / faucet.perSecond).toFixed(2)}`);
  console.log(`apps' CPU ms per pair: ${cpu}`);
  console.log(`apps' CPU ms per faucet credit (these slices): ${faucet.cpu}`);
  const warmRefused = [...warm.refused].map(([key, count]) => `${key} × ${count}`);
  const runRefused = [...run.refused].map(([key, count]) => `${key} × ${count}`);
  console.log(`non-2xx answers: ${runRefused.join(', ') || 'none'}${warmRefused.length ? ` (warm-up: ${warmRefused.join(', ')})` : ''}`);
  const executed = expectedTrades.size;
  const spent = workers.reduce((sum, worker) => sum.plus(worker.spent), new Big(0));
  const received = workers.reduce((sum, worker) => sum.plus(worker.received), new Big(0));
  if (problems.length) {
    process.exitCode = 1;
    console.log(`verification FAILED (${problems.length}):\n  ${problems.slice(0, 20).join('\n  ')}`);
  } else {
    console.log(
      `verified: ${executed} executed quotes (warm-up included) COMPLETED with their trade, one ledger TRADE each; ` +
        `balances exact: ${FROM_ASSET} ${clients} × ${FUNDING} − ${spent.toFixed()}, ${TO_ASSET} ${received.toFixed()}`,
    );
  }
  return { pairs, faucet, problems };
}
