// What every section of `pnpm bench` measures the same way: latency percentiles, and the CPU time
// of the stack's apps around a measurement, read from /proc (Linux; elsewhere "not measured").
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * Seconds each path is loaded before it is measured (BENCH_WARMUP), the baselines' as the stack's.
 * V8 optimizes a process's hot functions over its first seconds under load: after 3 s of quote +
 * execute pairs, TurboFan's compiling still took 13–19 % of the quote service's, the ledger's and
 * the gateway's CPU in the 8 s that followed; after 10 s, 3–4 %; after 25 s, about 1 %.
 */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 10);

/** p50/p99 of a list of latencies in ms, rounded to 0.1 ms. */
export function percentiles(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
  return { p50: at(0.5), p99: at(0.99) };
}

/** CPU time (user + system) a process has used so far, in ms; undefined off Linux. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * CPU time the whole machine has been busy so far, in ms (every process: the apps, PostgreSQL,
 * Redis, the load generator; /proc/stat's first line less idle and iowait); undefined off Linux.
 */
function machineBusyMs() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal (guest time is inside user already).
    const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
    return (user + nice + system + irq + softirq + (steal || 0)) * 10;
  } catch {
    return undefined;
  }
}

/** Each app's CPU ms so far, by name, the machine's, and when that was read (`apps`: the stack's Map of apps). */
export function cpuOf(apps) {
  return { at: performance.now(), machine: machineBusyMs(), apps: new Map([...apps].map(([name, app]) => [name, cpuMs(app.process.pid)])) };
}

/**
 * The apps' CPU between two readings: ms per unit of work (`count` of them) for each app that
 * used at least 1 % of the total, then the total, also as a share of one core, and last the
 * whole machine's busy time per unit, where PostgreSQL, Redis and the load generator count too.
 */
export function cpuShares(before, after, count) {
  const used = [...after.apps]
    .map(([name, ms]) => [name, ms - before.apps.get(name)])
    .filter(([, ms]) => Number.isFinite(ms))
    .sort((a, b) => b[1] - a[1]);
  if (!used.length) return 'not measured (no /proc)';
  if (!count) return 'not measured';
  const total = used.reduce((sum, [, ms]) => sum + ms, 0);
  const apps = used.filter(([, ms]) => ms >= total / 100).map(([name, ms]) => `${name} ${(ms / count).toFixed(2)}`);
  // What the two cores spent in all, PostgreSQL, Redis and the load generator included: on a
  // saturated machine, the rate of a path is about the cores' time over this figure.
  const machine = Number.isFinite(after.machine - before.machine) ? `; the whole machine ${((after.machine - before.machine) / count).toFixed(2)}` : '';
  return `${apps.join(', ')}; all apps ${(total / count).toFixed(2)}, ${Math.round((total / (after.at - before.at)) * 100)} % of one core${machine}`;
}

/**
 * Waits until the apps are nearly idle (all of them together under `idlePercent` % of one core
 * over 500 ms), at most `maxMs`: work queued by an earlier measurement (events still being
 * consumed) would otherwise take its CPU from the next one. Resolves the ms waited.
 */
export async function settle(apps, { idlePercent = 10, maxMs = 30000 } = {}) {
  const started = performance.now();
  for (;;) {
    const before = cpuOf(apps);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = cpuOf(apps);
    let used = 0;
    for (const [name, ms] of after.apps) used += Number.isFinite(ms) ? ms - before.apps.get(name) : 0;
    if ((used / (after.at - before.at)) * 100 < idlePercent || performance.now() - started > maxMs) return Math.round(performance.now() - started);
  }
}

/**
 * The apps' CPU while nothing is asked of them, in ms per second over `ms` (timers, polls,
 * heartbeats): what the stack costs the machine at rest, and what a moderate load pays on top.
 */
export async function idleCpu(apps, ms = 5000) {
  const before = cpuOf(apps);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuOf(apps);
  // Per second of the window: cpuShares' unit of work is then one second.
  return `ms per s: ${cpuShares(before, after, (after.at - before.at) / 1000)}`;
}

/** Resident memory of a process in MB (VmRSS); undefined off Linux. */
function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the stack holds while idle: the apps' resident memory (each and together) and the
 * PostgreSQL connections open to the bench's database (`query` runs SQL on a client of its own).
 */
export async function footprint(apps, query, database) {
  const each = [...apps].map(([name, app]) => [name, rssMb(app.process.pid)]).filter(([, mb]) => Number.isFinite(mb));
  const total = each.reduce((sum, [, mb]) => sum + mb, 0);
  const { rows } = await query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);
  return {
    rss: each.length ? `${Math.round(total)} MB (${each.map(([name, mb]) => `${name} ${Math.round(mb)}`).join(', ')})` : 'not measured (no /proc)',
    rssMb: total,
    connections: rows[0].n,
  };
}

/**
 * Slices each side of a comparison is cut into (BENCH_SLICES, 2 by default): the two sides of a
 * ratio are measured in alternation, A B B A (A B B A A B B A with 4), so a host whose pace drifts
 * over the minute a comparison takes slows both sides alike instead of whichever ran second.
 */
export const SLICES = Number(process.env.BENCH_SLICES ?? 2);
if (!Number.isInteger(SLICES) || SLICES < 1) throw new Error(`BENCH_SLICES must be a positive whole number, not ${process.env.BENCH_SLICES}`);

/**
 * Runs `measureA(seconds)` and `measureB(seconds)` in alternation, each `slices` times for
 * `seconds / slices` s: slice i runs A then B when i is even, B then A when it is odd. `before`
 * runs ahead of every slice (letting the apps settle, so work one slice queued is not done on
 * the next one's time). Resolves { a: [results], b: [results] }, in the order measured.
 */
export async function alternate(measureA, measureB, seconds, { slices = SLICES, before } = {}) {
  const a = [];
  const b = [];
  const slice = seconds / slices;
  for (let index = 0; index < slices; index++) {
    const order = index % 2 === 0 ? [[measureA, a], [measureB, b]] : [[measureB, b], [measureA, a]];
    for (const [measure, results] of order) {
      await before?.();
      results.push(await measure(slice));
    }
  }
  return { a, b };
}

/** Runs of `closedLoop`-style measurements as one: counts summed, percentiles over every latency. */
export function mergeRuns(runs) {
  const latencies = runs.flatMap((run) => run.latencies);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const failures = runs.reduce((sum, run) => sum + run.failures, 0);
  return { count: latencies.length, seconds, perSecond: latencies.length / seconds, ...percentiles(latencies), failures, latencies };
}

/**
 * The apps' CPU over several windows (the slices of one side of a comparison): `around(work)`
 * reads every app's CPU before and after `work` and adds the difference; `shares(count)` is
 * cpuShares over all the windows together.
 */
export class CpuTally {
  constructor(apps) {
    this.apps = apps;
    this.ms = 0;
    this.machine = 0;
    this.used = new Map();
  }

  async around(work) {
    const before = cpuOf(this.apps);
    const result = await work();
    const after = cpuOf(this.apps);
    this.ms += after.at - before.at;
    this.machine += after.machine - before.machine;
    for (const [name, ms] of after.apps) this.used.set(name, (this.used.get(name) ?? 0) + (ms - before.apps.get(name)));
    return result;
  }

  /** The whole machine's busy ms per unit over the windows (a baseline's, which runs no app). */
  machinePer(count) {
    return count && Number.isFinite(this.machine) ? (this.machine / count).toFixed(2) : 'not measured';
  }

  shares(count) {
    const zero = new Map([...this.used.keys()].map((name) => [name, 0]));
    return cpuShares({ at: 0, machine: 0, apps: zero }, { at: this.ms, machine: this.machine, apps: this.used }, count);
  }
}
