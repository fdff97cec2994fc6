import { answered } from '../../../../test/support/in-memory/scripted-webhook.sender';
import { attemptJob, testSecret, webhookDeliveryWorkerInMemory } from '../../../../test/support/in-memory/webhook-delivery-worker-in-memory.kit';

const HOUR = 3_600_000;

/**
 * ep_1 (org_1) has a message each hour from t0: FAILED, DROPPED, SUCCEEDED, PENDING, FAILED;
 * ep_2 (org_1) a FAILED one at t0 + 1 h. No retries (an empty schedule): a failure is final.
 */
async function history() {
  const hooks = webhookDeliveryWorkerInMemory({ retrySchedule: [] });
  hooks.endpoints.add({ endpointId: 'ep_1', organizationId: 'org_1', url: 'https://hooks.example.com/1', secrets: [testSecret('1')] });
  hooks.endpoints.add({ endpointId: 'ep_2', organizationId: 'org_1', url: 'https://hooks.example.com/2', secrets: [testSecret('2')] });
  const t0 = hooks.clock.now();
  const ids: Record<string, string> = {};
  const record = async (name: string, endpointId: string, at: number, dropped: boolean, answer: number | null) => {
    hooks.clock.set(new Date(t0.getTime() + at));
    const message = hooks.message([{ endpointId, organizationId: 'org_1', dropped }]);
    await hooks.recordMessage.execute(message);
    ids[name] = message.messageId;
    const [job] = hooks.queue.take();
    if (answer === null) return;
    hooks.sender.willAnswer(answered(answer));
    await hooks.attemptDelivery.execute(attemptJob(job));
  };
  await record('failed', 'ep_1', 0, false, 500);
  await record('dropped', 'ep_1', HOUR, true, null);
  await record('succeeded', 'ep_1', 2 * HOUR, false, 200);
  await record('pending', 'ep_1', 3 * HOUR, false, null);
  await record('failedLater', 'ep_1', 4 * HOUR, false, 502);
  await record('otherEndpoint', 'ep_2', HOUR, false, 500);
  hooks.clock.set(new Date(t0.getTime() + 10 * HOUR));
  const statusOf = (messageId: string) => [...hooks.deliveries.deliveries.values()].find((row) => row.messageId === messageId)!;
  return { hooks, t0, ids, statusOf };
}

const iso = (base: Date, ms: number) => new Date(base.getTime() + ms).toISOString();

describe('RecoverDeliveriesUseCase (in memory)', () => {
  it('puts back the FAILED and DROPPED deliveries of messages created in [since, until), due now', async () => {
    const { hooks, t0, ids, statusOf } = await history();
    expect(['failed', 'dropped', 'succeeded', 'pending', 'failedLater', 'otherEndpoint'].map((name) => statusOf(ids[name]).status)).toEqual([
      'FAILED',
      'DROPPED',
      'SUCCEEDED',
      'PENDING',
      'FAILED',
      'FAILED',
    ]);

    const view = await hooks.recoverDeliveries.execute({ organizationId: 'org_1', endpointId: 'ep_1', since: iso(t0, 0), until: iso(t0, 4 * HOUR) });

    expect(view).toEqual({ object: 'webhook_recovery', endpointId: 'ep_1', since: iso(t0, 0), until: iso(t0, 4 * HOUR), messages: 2 });
    const now = hooks.clock.now();
    expect(statusOf(ids.failed)).toMatchObject({ status: 'PENDING', attemptsMade: 1, retryIndex: 0, nextAttemptAt: now });
    expect(statusOf(ids.dropped)).toMatchObject({ status: 'PENDING', attemptsMade: 0, retryIndex: 0, nextAttemptAt: now });
    // Delivered, still retrying, created at `until` (excluded), or another endpoint's: left as they were.
    expect(statusOf(ids.succeeded).status).toBe('SUCCEEDED');
    expect(statusOf(ids.pending).nextAttemptAt).toEqual(new Date(t0.getTime() + 3 * HOUR));
    expect(statusOf(ids.failedLater).status).toBe('FAILED');
    expect(statusOf(ids.otherEndpoint).status).toBe('FAILED');
    expect(hooks.queue.jobs).toEqual([
      { deliveryId: statusOf(ids.failed).id, endpointId: 'ep_1', attemptsMade: 1, dueAt: now },
      { deliveryId: statusOf(ids.dropped).id, endpointId: 'ep_1', attemptsMade: 0, dueAt: now },
    ]);

    // The recovered messages are attempted again.
    hooks.sender.willAnswer(answered(200), answered(200));
    for (const job of hooks.queue.take()) expect(await hooks.attemptDelivery.execute(attemptJob(job))).toMatchObject({ kind: 'attempted', verdict: 'succeeded' });
    expect(hooks.sender.requests.slice(-2).map((request) => request.headers['hook-id'])).toEqual([ids.failed, ids.dropped]);
  });

  it('since is inclusive, and with no until every later message counts', async () => {
    const { hooks, t0, ids, statusOf } = await history();
    const view = await hooks.recoverDeliveries.execute({ organizationId: 'org_1', endpointId: 'ep_1', since: iso(t0, HOUR), until: null });
    expect(view).toMatchObject({ until: null, messages: 2 });
    expect(hooks.queue.jobs.map((job) => job.deliveryId)).toEqual([statusOf(ids.dropped).id, statusOf(ids.failedLater).id]);
    expect(statusOf(ids.failed).status).toBe('FAILED');
  });

  it("another organization's endpoint recovers nothing; an empty window is not an error", async () => {
    const { hooks, t0 } = await history();
    expect(await hooks.recoverDeliveries.execute({ organizationId: 'org_2', endpointId: 'ep_1', since: iso(t0, 0), until: null })).toMatchObject({ messages: 0 });
    expect(await hooks.recoverDeliveries.execute({ organizationId: 'org_1', endpointId: 'ep_1', since: iso(t0, 5 * HOUR), until: null })).toMatchObject({ messages: 0 });
    expect(hooks.queue.jobs).toEqual([]);
  });

  it('invalid_request when until is not after since; nothing is touched', async () => {
    const { hooks, t0, ids, statusOf } = await history();
    await expect(hooks.recoverDeliveries.execute({ organizationId: 'org_1', endpointId: 'ep_1', since: iso(t0, HOUR), until: iso(t0, HOUR) })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'until: must be after since',
    });
    await expect(hooks.recoverDeliveries.execute({ organizationId: 'org_1', endpointId: 'ep_1', since: iso(t0, HOUR), until: iso(t0, 0) })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(statusOf(ids.failed).status).toBe('FAILED');
    expect(hooks.queue.jobs).toEqual([]);
  });
});
