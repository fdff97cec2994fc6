import { eventually, isolateQueues } from '@pfs/testing';
import { expectError, startE2eStack, type CreatedOrganization, type E2eStack } from '../e2e/support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-outage');

/*
 * A service that is down must give the client a fast 503 naming it, not a hang, and the
 * gateway must use the service again as soon as it is back. Its own stack: stopping a service
 * would disturb the other end-to-end file.
 */
describe('gateway end to end: a stopped service', () => {
  let e2e: E2eStack;
  let org: CreatedOrganization;

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
    org = await e2e.createOrganization('e2e outage');
    await eventually(async () => ((await e2e.get(`/v1/accounts/${org.accountId}`, { key: org.apiKey })).status === 200 ? true : undefined), 10000, 100);
  }, 120000);

  afterAll(async () => {
    await e2e?.stop();
  }, 60000);

  it('answers 503 internal_error naming the ledger at once while it is stopped, and recovers when it is back', async () => {
    expect((await e2e.get('/v1/accounts', { key: org.apiKey })).status).toBe(200);

    await e2e.stack.stopApp('ledger-service');

    // The gateway re-counts each queue's consumers every second; a request in that first
    // second waits at most the command timeout. From then on the failure is immediate.
    const first = await eventually(async () => {
      const answer = await e2e.get('/v1/accounts', { key: org.apiKey });
      return answer.status === 503 ? answer : undefined;
    }, 8000, 100);
    expect(expectError(first, 503, 'internal_error').message).toBe('The ledger service is unavailable; try again shortly.');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const again = await e2e.get(attempt % 2 ? '/v1/accounts' : `/v1/accounts/${org.accountId}`, { key: org.apiKey });
      expect(expectError(again, 503, 'internal_error').message).toMatch(/ledger service/);
      // Fast means without waiting out the command timeout (5 s), however busy the machine.
      expect(again.durationMs).toBeLessThan(5000);
    }
    // Routes of the services still running are unaffected.
    expect((await e2e.get('/v1/assets', { key: org.apiKey })).status).toBe(200);
    // Readiness reports the missing consumer.
    const ready = await e2e.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json<{ checks: Record<string, string> }>().checks).toMatchObject({ ledger: expect.stringMatching(/ledger service/), organization: 'ok' });
    // The load balancer's probe keeps the gateway in rotation: it still serves the other routes.
    expect((await e2e.get('/readyz?scope=gateway')).status).toBe(200);

    await e2e.stack.startApp('ledger-service');

    const back = await eventually(async () => {
      const answer = await e2e.get('/v1/accounts', { key: org.apiKey });
      return answer.status === 200 ? answer : undefined;
    }, 5000, 100);
    expect(back.json<{ data: Array<{ accountId: string }> }>().data.map((account) => account.accountId)).toEqual([org.accountId]);
    expect((await e2e.get('/readyz')).status).toBe(200);
  }, 60000);

  it('closes gracefully on SIGTERM: exits 0 after logging that it stopped', async () => {
    const gateway = e2e.stack.apps.get('gateway');
    await e2e.stack.stopApp('gateway', 'SIGTERM');
    expect(gateway?.process.exitCode).toBe(0);
    expect(e2e.gatewayLog().map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down: finishing in-flight requests', 'stopped']));
  });
});
