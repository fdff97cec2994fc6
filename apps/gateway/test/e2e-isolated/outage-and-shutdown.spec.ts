import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { QueueDepthReader } from '@pfs/messaging';
import { eventually, isolateQueues, testRedisUrl } from '@pfs/testing';
import { send, sleep, type Answer } from '../support/http-client';
import { expectError, REQUEST_ID, startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-outage');

/*
 * Services that stop, and processes that shut down, under real traffic: a stopped service must
 * give the client a fast 503 naming it (not a hang) and be used again once back; a SIGTERM to a
 * service or to the gateway must lose no request. Its own stack: it stops and signals apps.
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
  /** 0 while the request is in flight. */
  endedAt: number;
  status?: number;
  requestId?: string | null;
  body?: string;
  /** A failure below HTTP: refused, reset, timed out. */
  error?: string;
}

function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/**
 * `concurrency` clients, each sending GET `path` one after another over keep-alive connections
 * (50 ms apart after a 503) until `keepGoing()` turns false, or (with stopOnError) until its first failure below HTTP.
 * Every request is in `outcomes` from the moment it is sent.
 */
async function burst(
  url: string,
  key: string,
  outcomes: Outcome[],
  options: { concurrency: number; keepGoing: () => boolean; stopOnError?: boolean },
): Promise<Outcome[]> {
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
      // Told to try again shortly: a client that spins on refusals only takes CPU from the
      // service coming back.
      if (outcome.status === 503) await sleep(50);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, () => client()));
  return outcomes;
}

/** Waits until `count` outcomes match; generous, the machine may be busy. */
const until = (outcomes: Outcome[], count: number, match: (outcome: Outcome) => boolean) =>
  eventually(async () => (outcomes.filter(match).length >= count ? true : undefined), 30000, 20);

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

describe('stopped services and graceful shutdown (real processes)', () => {
  let e2e: E2eStack;
  let org: CreatedOrganization;
  let accountPath: string;

  beforeAll(async () => {
    // The bursts measure shutdown, not the rate limit: on a fast machine they exceed 1000/min.
    // Only the services the file stops or calls: readiness then reports the others missing too,
    // so its checks are read one by one (200 with every service up: test/e2e/read-path.spec.ts).
    e2e = await startE2eStack(queuePrefix, { RATE_LIMIT_PER_MINUTE: '1000000' }, { apps: ['organization-service', 'ledger-service'] });
    org = await e2e.createOrganization('e2e outage');
    accountPath = `/v1/accounts/${org.accountId}`;
    await eventually(async () => ((await e2e.get(accountPath, { key: org.apiKey })).status === 200 ? true : undefined), 15000, 100);
  }, 120000);

  afterAll(async () => {
    await e2e?.stop();
  }, 60000);

  /** The gateway's readiness once it reports `match`; each service gets 1 s per ping, so poll. */
  const readiness = (match: (status: number, checks: Record<string, string>) => boolean) =>
    eventually(async () => {
      const ready = await e2e.get('/readyz');
      const checks = ready.json<{ checks: Record<string, string> }>().checks;
      return match(ready.status, checks) ? { status: ready.status, checks } : undefined;
    }, 30000, 200);

  describe('a stopped service', () => {
    it('answers 503 internal_error naming the ledger at once while it is stopped, and recovers when it is back', async () => {
      expect((await e2e.get('/v1/accounts', { key: org.apiKey })).status).toBe(200);

      await e2e.stack.stopApp('ledger-service');

      // The gateway re-counts each queue's consumers every second; a request in that first
      // second waits at most the command timeout. From then on the failure is immediate. Its
      // readiness (a ping of 1 s at most) tells when the ledger is gone, without that wait.
      await readiness((_status, checks) => checks.ledger !== 'ok');
      const first = await eventually(async () => {
        const answer = await e2e.get('/v1/accounts', { key: org.apiKey });
        return answer.status === 503 ? answer : undefined;
      }, 20000, 100);
      expect(expectError(first, 503, 'internal_error').message).toBe('The ledger service is unavailable; try again shortly.');
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const again = await e2e.get(attempt % 2 ? '/v1/accounts' : accountPath, { key: org.apiKey });
        expect(expectError(again, 503, 'internal_error').message).toMatch(/ledger service/);
        // Fast means without waiting out the command timeout, however busy the machine.
        expect(again.durationMs).toBeLessThan(COMMAND_TIMEOUT_MS);
      }
      // Routes of the services still running are unaffected.
      expect((await e2e.get('/v1/assets', { key: org.apiKey })).status).toBe(200);
      // Readiness reports the missing consumer.
      const ready = await readiness((_status, checks) => checks.organization === 'ok');
      expect(ready.status).toBe(503);
      expect(ready.checks).toMatchObject({ ledger: expect.stringMatching(/ledger service/), organization: 'ok' });
      // The load balancer's probe keeps the gateway in rotation: it still serves the other routes.
      expect((await e2e.get('/readyz?scope=gateway')).status).toBe(200);

      await e2e.stack.startApp('ledger-service');

      const back = await eventually(async () => {
        const answer = await e2e.get('/v1/accounts', { key: org.apiKey });
        return answer.status === 200 ? answer : undefined;
      }, 20000, 100);
      expect(back.json<{ data: Array<{ accountId: string }> }>().data.map((account) => account.accountId)).toEqual([org.accountId]);
      await readiness((_status, checks) => checks.ledger === 'ok' && checks.organization === 'ok');
    }, 120000);

    it('answers 503 internal_error on every organization-service endpoint while that service is down, with no internals in the body', async () => {
      const created = await send(e2e.baseUrl, '/v1/organizations', { method: 'POST', key: org.apiKey, body: { name: 'Outage client', entityType: 'BUSINESS', country: 'FR' } });
      expect(created.status).toBe(201);
      const client = created.json<{ organizationId: string }>().organizationId;
      // One request per spec §7 row of the organization service's endpoints.
      const endpoints: Array<(key: string) => Promise<Answer>> = [
        (key) => e2e.get('/v1/assets', { key }),
        (key) =>
          send(e2e.baseUrl, '/v1/organizations/sub-org-tier', { method: 'PUT', key, headers: { 'service-on-behalf-of': client }, body: { subOrgTierKey: 'preferred' }}),
        (key) => send(e2e.baseUrl, '/v1/referral-invites', { method: 'POST', key, body: { email: `outage-${randomUUID().slice(0, 8)}@example.com` } }),
      ];
      await e2e.stack.stopApp('organization-service');
      try {
        await readiness((_status, checks) => checks.organization !== 'ok');
        await Promise.all(
          endpoints.map(async (endpoint) => {
            // The gateway re-counts consumers every second; until then a request waits the command timeout.
            const answer = await eventually(async () => {
              const attempt = await endpoint(org.apiKey);
              return attempt.status === 503 ? attempt : undefined;
            }, 30000, 500);
            expect(expectError(answer, 503, 'internal_error').message).toBe('The organization service is unavailable; try again shortly.');
          }),
        );
      } finally {
        await e2e.stack.startApp('organization-service');
      }
      await eventually(async () => ((await e2e.get(accountPath, { key: org.apiKey })).status === 200 ? true : undefined), 20000, 100);
    }, 120000);
  });

  describe('graceful shutdown under load', () => {
    it('a SIGTERM to the ledger during a burst loses no request and leaves no job behind', async () => {
      const ledger = e2e.stack.apps.get('ledger-service');
      if (!ledger) throw new Error('no ledger in the stack');
      let running = true;
      const outcomes: Outcome[] = [];
      const finished = burst(`${e2e.baseUrl}${accountPath}`, org.apiKey, outcomes, { concurrency: 8, keepGoing: () => running });
      await until(outcomes, 50, (outcome) => outcome.endedAt > 0);

      const sigtermAt = Date.now();
      await e2e.stack.stopApp('ledger-service', 'SIGTERM');
      const exitedAt = Date.now();
      // A while with no ledger at all (refused requests prove it), then a new instance.
      await until(outcomes, 1, (outcome) => outcome.status === 503 && outcome.startedAt >= exitedAt);
      await e2e.stack.startApp('ledger-service');
      const readyAt = Date.now();
      await until(outcomes, 8, (outcome) => outcome.startedAt > readyAt && outcome.endedAt > 0);
      running = false;
      await finished;

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
        }, 15000, 100);
        expect(counts.map((entry) => entry.state).sort()).toEqual(['active', 'delayed', 'failed', 'waiting']);
      } finally {
        await depth.close();
      }
    }, 120000);

    it('a SIGTERM to the gateway answers every request it accepted in full, refuses new connections, then exits 0', async () => {
      const gateway = e2e.stack.apps.get('gateway');
      const ledger = e2e.stack.apps.get('ledger-service');
      if (!gateway?.process.pid || !ledger?.process.pid) throw new Error('stack incomplete');
      const ledgerPid = ledger.process.pid;

      let sigtermSent = false;
      // Each client stops after the answer it is waiting for when the SIGTERM goes out, so its
      // keep-alive connection then sits idle: the gateway must close it rather than wait for it.
      const outcomes: Outcome[] = [];
      const finished = burst(`${e2e.baseUrl}${accountPath}`, org.apiKey, outcomes, { concurrency: 16, keepGoing: () => !sigtermSent, stopOnError: true });
      await until(outcomes, 32, (outcome) => outcome.endedAt > 0);
      // Freeze the ledger so that every client has a request in flight when the SIGTERM arrives.
      process.kill(ledgerPid, 'SIGSTOP');
      let resumed = false;
      try {
        await until(outcomes, 16, (outcome) => outcome.endedAt === 0);
        // Sent is not yet received (a busy machine may hold a request in the client for a while,
        // and a connection the gateway sees idle is closed at the SIGTERM): wait until all 16 are
        // commands waiting for the frozen ledger, i.e. requests the gateway is answering.
        const depth = new QueueDepthReader({ redisUrl: testRedisUrl(), prefix: queuePrefix, name: 'gateway-shutdown-test' }, ['ledger-queries']);
        try {
          await eventually(async () => ((await depth.read()).filter((entry) => entry.state === 'waiting' || entry.state === 'active').reduce((sum, entry) => sum + entry.count, 0) >= 16 ? true : undefined), 30000, 20);
        } finally {
          await depth.close();
        }
        // 'close', not 'exit': only then has every line the process wrote been read from its stdout.
        const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
          gateway.process.once('close', (code) => resolve({ code, at: Date.now() })),
        );
        const logLinesBefore = gateway.output.length;
        const sigtermAt = Date.now();
        sigtermSent = true;
        gateway.process.kill('SIGTERM');

        // Draining: no new connection is accepted (once the signal is handled, which a busy machine
        // may delay), yet the process waits for the requests in flight.
        await eventually(async () => ((await freshConnection(e2e.baseUrl)) === 'ECONNREFUSED' ? true : undefined), 15000, 50);
        // The ledger is frozen: nothing in flight can finish, so the process must still be there.
        await sleep(400);
        expect(gateway.process.exitCode).toBeNull();

        process.kill(ledgerPid, 'SIGCONT');
        resumed = true;
        const resumedAt = Date.now();
        const { code, at } = await exited;
        await finished;

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
        const log = gateway.output.slice(logLinesBefore).map((line) => JSON.parse(line) as { msg: string; requestId?: string; status?: number; route?: string });
        // The draining probe's own /healthz requests, answered while the signal was still on its way, are not the clients'.
        const completed = log.filter((line) => line.msg === 'request completed' && line.route !== '/healthz');
        expect(completed.length).toBeGreaterThanOrEqual(16);
        for (const line of completed) {
          expect(line.status).toBe(200);
          expect(answered.has(line.requestId)).toBe(true);
        }
        expect(log.map((line) => line.msg)).toContain('shutting down: finishing in-flight requests');
        // The last lines come with it, so a line out of place says which request it was.
        expect({ last: log.at(-1)?.msg, tail: log.slice(-4) }).toMatchObject({ last: 'stopped' });
      } finally {
        if (!resumed) process.kill(ledgerPid, 'SIGCONT');
      }
    }, 120000);
  });
});
