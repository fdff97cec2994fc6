import { answered, noAnswer } from '../../../../test/support/in-memory/scripted-webhook.sender';
import { attemptJob, testSecret, webhookDeliveryWorkerInMemory } from '../../../../test/support/in-memory/webhook-delivery-worker-in-memory.kit';

/** Two endpoints of org_1 and one of org_2; five attempts to ep_1 at distinct times, one to each other endpoint. */
async function attemptLog() {
  const hooks = webhookDeliveryWorkerInMemory();
  for (const [endpointId, organizationId] of [['ep_1', 'org_1'], ['ep_2', 'org_1'], ['ep_3', 'org_2']]) {
    hooks.endpoints.add({ endpointId, organizationId, url: `https://hooks.example.com/${endpointId}`, secrets: [testSecret(endpointId)] });
  }
  const first = hooks.message([
    { endpointId: 'ep_1', organizationId: 'org_1', dropped: false },
    { endpointId: 'ep_2', organizationId: 'org_1', dropped: false },
    { endpointId: 'ep_3', organizationId: 'org_2', dropped: false },
  ]);
  await hooks.recordMessage.execute(first);
  hooks.sender.willAnswer(answered(500, { response: 'no' }), answered(200), answered(200));
  for (const job of hooks.queue.take()) await hooks.attemptDelivery.execute(attemptJob(job));
  let [retry] = hooks.queue.take();
  hooks.clock.set(retry.dueAt);
  hooks.sender.willAnswer(noAnswer('timed out after 15 s', { timedOut: true }));
  await hooks.attemptDelivery.execute(attemptJob(retry));
  [retry] = hooks.queue.take();
  hooks.clock.set(retry.dueAt);
  hooks.sender.willAnswer(answered(200));
  await hooks.attemptDelivery.execute(attemptJob(retry));

  hooks.clock.advance(60_000);
  const second = hooks.message([{ endpointId: 'ep_1', organizationId: 'org_1', dropped: false }]);
  await hooks.recordMessage.execute(second);
  hooks.sender.willAnswer(answered(302), answered(204));
  let [job] = hooks.queue.take();
  await hooks.attemptDelivery.execute(attemptJob(job));
  [job] = hooks.queue.take();
  hooks.clock.set(job.dueAt);
  await hooks.attemptDelivery.execute(attemptJob(job));
  return { hooks, first, second };
}

describe('ListDeliveryAttemptsUseCase (in memory)', () => {
  it("lists every attempt to the endpoint, newest first, as the API shows them; other endpoints' not", async () => {
    const { hooks, first, second } = await attemptLog();

    const page = await hooks.listDeliveryAttempts.execute({ organizationId: 'org_1', endpointId: 'ep_1', page: { limit: 10, cursor: null } });

    expect(page.hasMore).toBe(false);
    expect(page.nextCursor).toBeNull();
    expect(page.data.map((view) => [view.messageId, view.attempt, view.statusCode, view.error])).toEqual([
      [second.messageId, 2, 204, null],
      [second.messageId, 1, 302, 'HTTP 302: redirects are not followed'],
      [first.messageId, 3, 200, null],
      [first.messageId, 2, null, 'timed out after 15 s'],
      [first.messageId, 1, 500, 'HTTP 500'],
    ]);
    const times = page.data.map((view) => Date.parse(view.attemptedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const oldest = hooks.deliveries.attempts[0];
    expect(page.data[4]).toEqual({
      object: 'webhook_delivery_attempt',
      id: oldest.id,
      messageId: first.messageId,
      eventType: first.eventType,
      attempt: 1,
      attemptedAt: oldest.attemptedAt.toISOString(),
      statusCode: 500,
      durationMs: oldest.durationMs,
      error: 'HTTP 500',
      response: 'no',
    });
  });

  it('pages with a cursor, without gaps or repeats; attempts made in the same instant are ordered by id', async () => {
    const { hooks } = await attemptLog();
    const whole = await hooks.listDeliveryAttempts.execute({ organizationId: 'org_1', endpointId: 'ep_2', page: { limit: 10, cursor: null } });
    expect(whole.data).toHaveLength(1);

    const all = (await hooks.listDeliveryAttempts.execute({ organizationId: 'org_1', endpointId: 'ep_1', page: { limit: 100, cursor: null } })).data.map((view) => view.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await hooks.listDeliveryAttempts.execute({ organizationId: 'org_1', endpointId: 'ep_1', page: { limit: 2, cursor } });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((view) => view.id));
      expect(page.hasMore).toBe(page.nextCursor !== null);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(seen).toHaveLength(5);
  });

  it("another organization's endpoint lists nothing, and a cursor of another list is refused", async () => {
    const { hooks } = await attemptLog();
    expect((await hooks.listDeliveryAttempts.execute({ organizationId: 'org_2', endpointId: 'ep_1', page: { limit: 10, cursor: null } })).data).toEqual([]);
    expect((await hooks.listDeliveryAttempts.execute({ organizationId: 'org_2', endpointId: 'ep_3', page: { limit: 10, cursor: null } })).data).toHaveLength(1);

    const page = await hooks.listDeliveryAttempts.execute({ organizationId: 'org_1', endpointId: 'ep_1', page: { limit: 1, cursor: null } });
    await expect(hooks.listDeliveryAttempts.execute({ organizationId: 'org_1', endpointId: 'ep_2', page: { limit: 1, cursor: page.nextCursor } })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(hooks.listDeliveryAttempts.execute({ organizationId: 'org_2', endpointId: 'ep_1', page: { limit: 1, cursor: page.nextCursor } })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
