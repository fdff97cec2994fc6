import { request as httpRequest } from 'node:http';
import { QueueDepthReader } from '@pfs/messaging';
import { eventually, isolateQueues, testRedisUrl } from '@pfs/testing';
import { REQUEST_ID, startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-shutdown');

/*
 * Graceful shutdown of real processes under load (issue 5 item 4). A SIGTERM to a service while
 * the gateway sends it a burst of commands, then a SIGTERM to the gateway while requests are in
 * flight. Its own stack: it stops apps.
 */

/** The command timeout of the stack (the default COMMAND_TIMEOUT_MS). */
const COMMAND_TIMEOUT_MS = 5000;
/**
 * The drain's own bound (the default SHUTDOWN_TIMEOUT_MS): past it a process exits 1, so an exit
 * code 0 within it is the contract, however busy the machine.
 */
const SHUTDOWN_TIMEOUT_MS = 25000;

interface Outcome {
  startedAt: number;
  endedAt: number;
  status?: number;
  requestId?: string | null;
  body?: string;
  /** A failure below HTTP: refused, reset, timed out. */
  error?: string;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/**
 * `concurrency` clients, each sending GET `path` one after another over keep-alive connections
 * until `keepGoing()` turns false, or (with stopOnError) until its first failure below HTTP.
 */
async function burst(
  url: string,
  key: string,
  options: { concurrency: number; keepGoing: () => boolean; stopOnError?: boolean },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const client = async () => {
    while (options.keepGoing()) {
      const outcome: Outcome = { startedAt: Date.now(), endedAt: 0 };
      outcomes.push(outcome);
      try {
        const response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(15000) });
        outcome.status = response.status;
        outcome.requestId = response.headers.get('x-request-id');
        outcome.body = await response.text();
      } catch (error) {
        outcome.error = describeError(error);
      }
      outcome.endedAt = Date.now();
      if (outcome.error && options.stopOnError) return;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, () => client()));
  return outcomes;
}

/** A GET on a connection of its own (no pooled keep-alive socket): does the port accept at all? */
function freshConnection(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/healthz`, { agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(`answered ${response.statusCode}`);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

describe('graceful shutdown under load (real processes)', () => {
  let e2e: E2eStack;
  let org: CreatedOrganization;
  let accountPath: string;

  beforeAll(async () => {
    // The bursts measure shutdown, not the rate limit: on a fast machine they exceed 1000/min.
    e2e = await startE2eStack(queuePrefix, { RATE_LIMIT_PER_MINUTE: '1000000' });
    org = await e2e.createOrganization('e2e shutdown');
    accountPath = `/v1/accounts/${org.accountId}`;
    await eventually(async () => ((await e2e.get(accountPath, { key: org.apiKey })).status === 200 ? true : undefined), 10000, 100);
  }, 120000);

  afterAll(async () => {
    await e2e?.stop();
  }, 60000);

  it('a SIGTERM to the ledger during a burst loses no request and leaves no job behind', async () => {
    const ledger = e2e.stack.apps.get('ledger-service');
    if (!ledger) throw new Error('no ledger in the stack');
    let running = true;
    const outcomesPromise = burst(`${e2e.baseUrl}${accountPath}`, org.apiKey, { concurrency: 8, keepGoing: () => running });
    await sleep(500);

    const sigtermAt = Date.now();
    await e2e.stack.stopApp('ledger-service', 'SIGTERM');
    const exitedAt = Date.now();
    // A while with no ledger at all, then a new instance.
    await sleep(1500);
    await e2e.stack.startApp('ledger-service');
    const readyAt = Date.now();
    await sleep(1000);
    running = false;
    const outcomes = await outcomesPromise;

    // The old instance drained and exited cleanly, well inside the grace period.
    expect(ledger.process.exitCode).toBe(0);
    expect(exitedAt - sigtermAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    const messages = ledger.output.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.slice(-2)).toEqual(['shutting down: finishing active jobs', 'stopped']);

    // Every request was answered: none hung, none failed below HTTP, none answered 500.
    expect(outcomes.length).toBeGreaterThan(50);
    expect(outcomes.filter((outcome) => outcome.error)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 503)).toEqual([]);
    // None hung: each answered by the command timeout at the latest, with room for a busy machine.
    for (const outcome of outcomes) expect(outcome.endedAt - outcome.startedAt).toBeLessThan(2 * COMMAND_TIMEOUT_MS);

    // A 503 only while there was no ledger: answered after the SIGTERM, asked before the new one was up.
    const refused = outcomes.filter((outcome) => outcome.status === 503);
    for (const outcome of refused) {
      expect(outcome.endedAt).toBeGreaterThanOrEqual(sigtermAt);
      expect(outcome.startedAt).toBeLessThanOrEqual(readyAt);
      const body = JSON.parse(outcome.body ?? '') as { error: { code: string; message: string; requestId: string } };
      expect(body).toEqual({
        error: { code: 'internal_error', message: 'The ledger service is unavailable; try again shortly.', requestId: outcome.requestId },
      });
    }
    // Everything answered before the SIGTERM, and everything asked once the new ledger was up, succeeded.
    expect(outcomes.filter((outcome) => outcome.endedAt < sigtermAt && outcome.status !== 200)).toEqual([]);
    const afterRestart = outcomes.filter((outcome) => outcome.startedAt > readyAt);
    expect(afterRestart.length).toBeGreaterThan(0);
    expect(afterRestart.every((outcome) => outcome.status === 200)).toBe(true);
    for (const outcome of outcomes.filter((o) => o.status === 200)) {
      expect(outcome.requestId).toMatch(REQUEST_ID);
      expect(JSON.parse(outcome.body ?? '')).toMatchObject({ accountId: org.accountId });
    }

    // No job is left active (a dead worker's lock) or waiting on the ledger's query queue.
    const depth = new QueueDepthReader({ redisUrl: testRedisUrl(), prefix: queuePrefix, name: 'shutdown-test' }, ['ledger-queries']);
    try {
      const counts = await eventually(async () => {
        const read = await depth.read();
        return read.every((entry) => entry.count === 0) ? read : undefined;
      }, 3000, 100);
      expect(counts.map((entry) => entry.state).sort()).toEqual(['active', 'delayed', 'failed', 'waiting']);
    } finally {
      await depth.close();
    }
  }, 60000);

  it('a SIGTERM to the gateway answers every request it accepted in full, refuses new connections, then exits 0', async () => {
    const gateway = e2e.stack.apps.get('gateway');
    const ledger = e2e.stack.apps.get('ledger-service');
    if (!gateway?.process.pid || !ledger?.process.pid) throw new Error('stack incomplete');
    const ledgerPid = ledger.process.pid;

    let sigtermSent = false;
    // Each client stops after the answer it is waiting for when the SIGTERM goes out, so its
    // keep-alive connection then sits idle: the gateway must close it rather than wait for it.
    const outcomesPromise = burst(`${e2e.baseUrl}${accountPath}`, org.apiKey, { concurrency: 16, keepGoing: () => !sigtermSent, stopOnError: true });
    await sleep(500);
    // Freeze the ledger so that every client has a request in flight when the SIGTERM arrives.
    process.kill(ledgerPid, 'SIGSTOP');
    let resumed = false;
    try {
      await sleep(300);
      const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
        gateway.process.once('exit', (code) => resolve({ code, at: Date.now() })),
      );
      const logLinesBefore = gateway.output.length;
      const sigtermAt = Date.now();
      sigtermSent = true;
      gateway.process.kill('SIGTERM');
      await sleep(300);

      // Draining: no new connection is accepted (once the signal is handled, which a busy machine
      // may delay), yet the process waits for the requests in flight.
      await eventually(async () => ((await freshConnection(e2e.baseUrl)) === 'ECONNREFUSED' ? true : undefined), 2000, 50);
      await sleep(400);
      expect(gateway.process.exitCode).toBeNull();

      process.kill(ledgerPid, 'SIGCONT');
      resumed = true;
      const resumedAt = Date.now();
      const { code, at } = await exited;
      const outcomes = await outcomesPromise;

      expect(code).toBe(0);
      // Promptly once the last answer is out: idle keep-alive connections do not hold it (72 s).
      expect(at - resumedAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS);

      // Every request in flight at the SIGTERM got its full answer.
      const inFlight = outcomes.filter((outcome) => outcome.startedAt < sigtermAt);
      expect(inFlight.filter((outcome) => outcome.endedAt > sigtermAt).length).toBeGreaterThanOrEqual(16);
      for (const outcome of inFlight) {
        expect({ status: outcome.status, error: outcome.error }).toEqual({ status: 200, error: undefined });
        expect(JSON.parse(outcome.body ?? '')).toMatchObject({ accountId: org.accountId });
      }
      expect(outcomes.filter((outcome) => outcome.startedAt >= sigtermAt)).toEqual([]);

      // Every request the gateway logged as completed reached its client whole, with that id.
      const answered = new Set(outcomes.filter((outcome) => outcome.status === 200).map((outcome) => outcome.requestId));
      const log = gateway.output.slice(logLinesBefore).map((line) => JSON.parse(line) as { msg: string; requestId?: string; status?: number });
      const completed = log.filter((line) => line.msg === 'request completed');
      expect(completed.length).toBeGreaterThanOrEqual(16);
      for (const line of completed) {
        expect(line.status).toBe(200);
        expect(answered.has(line.requestId)).toBe(true);
      }
      expect(log.map((line) => line.msg).slice(-1)).toEqual(['stopped']);
    } finally {
      if (!resumed) process.kill(ledgerPid, 'SIGCONT');
    }
  }, 60000);
});
