import { Webhook } from 'standardwebhooks';
import type { WebhookRequest } from '../../ports/webhook-sender';
import { answered, noAnswer } from '../../../../test/support/in-memory/scripted-webhook.sender';
import { attemptJob, testSecret, webhookDeliveryWorkerInMemory, type WorkerKitOptions } from '../../../../test/support/in-memory/webhook-delivery-worker-in-memory.kit';
import { leaseHolder, WEBHOOK_USER_AGENT } from './attempt-delivery.use-case';

const ENDPOINT = { endpointId: 'ep_1', organizationId: 'org_1', url: 'https://hooks.example.com/pfs' };

/** A kit with one active endpoint and one message due to it; its first job taken off the queue. */
async function oneMessage(options: WorkerKitOptions = {}, secrets = [testSecret('current')]) {
  const hooks = webhookDeliveryWorkerInMemory(options);
  hooks.endpoints.add({ ...ENDPOINT, secrets });
  const message = hooks.message([{ endpointId: ENDPOINT.endpointId, organizationId: ENDPOINT.organizationId, dropped: false }]);
  await hooks.recordMessage.execute(message);
  const [job] = hooks.queue.take();
  return { hooks, message, job, deliveryId: job.deliveryId };
}

/** What a receiver using the standardwebhooks package makes of the request, at the given time. */
function verifyAt(at: Date, secret: string, request: WebhookRequest): unknown {
  const now = jest.spyOn(Date, 'now').mockReturnValue(at.getTime());
  try {
    return new Webhook(secret).verify(request.body, request.headers);
  } finally {
    now.mockRestore();
  }
}

describe('AttemptDeliveryUseCase (in memory)', () => {
  it('signs each attempt with every secret, as the standardwebhooks package verifies it', async () => {
    const current = testSecret('current');
    const previous = testSecret('previous');
    const { hooks, message, job } = await oneMessage({}, [current, previous]);
    hooks.sender.willAnswer(answered(204));

    await hooks.attemptDelivery.execute(attemptJob(job));

    const [request] = hooks.sender.requests;
    expect(request.url).toBe(ENDPOINT.url);
    expect(request.body).toBe(message.payload);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'hook-id': message.messageId,
      'hook-timestamp': String(Math.floor(hooks.clock.now().getTime() / 1000)),
      'webhook-id': message.messageId,
      'webhook-timestamp': request.headers['hook-timestamp'],
      'webhook-signature': request.headers['hook-signature'],
    });
    // During a rotation's grace both secrets sign: receivers on either one accept.
    expect(request.headers['hook-signature'].split(' ')).toHaveLength(2);
    expect(verifyAt(hooks.clock.now(), current, request)).toEqual(JSON.parse(message.payload));
    expect(verifyAt(hooks.clock.now(), previous, request)).toEqual(JSON.parse(message.payload));
    expect(() => verifyAt(hooks.clock.now(), testSecret('someone else'), request)).toThrow('No matching signature found');
    expect(() => verifyAt(hooks.clock.now(), current, { ...request, body: `${request.body} ` })).toThrow('No matching signature found');
  });

  it('a 2xx: SUCCEEDED, the attempt logged, the lease freed, nothing queued, the failing run ended', async () => {
    const { hooks, deliveryId, job, message } = await oneMessage();
    await hooks.health.recordFailure(ENDPOINT.endpointId, hooks.clock.now());
    hooks.sender.willAnswer(answered(200, { response: '{"ok":true}', durationMs: 87 }));

    const outcome = await hooks.attemptDelivery.execute(attemptJob(job));

    expect(outcome).toMatchObject({ kind: 'attempted', verdict: 'succeeded', result: { statusCode: 200 } });
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'SUCCEEDED', attemptsMade: 1, nextAttemptAt: null, leasedUntil: null, leasedBy: null });
    expect(hooks.deliveries.attempts).toEqual([
      {
        id: expect.stringMatching(/^att_/),
        deliveryId,
        messageId: message.messageId,
        endpointId: ENDPOINT.endpointId,
        organizationId: ENDPOINT.organizationId,
        eventType: message.eventType,
        attempt: 1,
        attemptedAt: hooks.clock.now(),
        statusCode: 200,
        durationMs: 87,
        error: null,
        response: '{"ok":true}',
      },
    ]);
    expect(hooks.queue.jobs).toEqual([]);
    expect(hooks.health.of(ENDPOINT.endpointId)).toEqual({ consecutiveFailures: 0, failingSince: null });
    expect(hooks.endpoints.disabled).toEqual([]);
  });

  it('a failure: PENDING until the first scheduled wait (5 s ±20 %), that retry queued, the run counted', async () => {
    const { hooks, deliveryId, job } = await oneMessage();
    hooks.sender.willAnswer(answered(500, { response: 'upstream broke' }));
    const sentAt = hooks.clock.now();

    const outcome = await hooks.attemptDelivery.execute(attemptJob(job));

    expect(outcome).toMatchObject({ kind: 'attempted', verdict: 'failed' });
    const row = hooks.deliveries.row(deliveryId);
    expect(row).toMatchObject({ status: 'PENDING', attemptsMade: 1, retryIndex: 1, leasedUntil: null });
    const wait = row.nextAttemptAt!.getTime() - sentAt.getTime();
    expect(wait).toBeGreaterThanOrEqual(4000);
    expect(wait).toBeLessThanOrEqual(6000);
    expect(hooks.queue.jobs).toEqual([{ deliveryId, endpointId: ENDPOINT.endpointId, attemptsMade: 1, dueAt: row.nextAttemptAt }]);
    expect(hooks.deliveries.attempts[0]).toMatchObject({ attempt: 1, statusCode: 500, error: 'HTTP 500', response: 'upstream broke' });
    expect(hooks.health.of(ENDPOINT.endpointId)).toEqual({ consecutiveFailures: 1, failingSince: sentAt });
  });

  it('a retry keeps the hook-id and signs with a fresh timestamp; its job is only claimed once due', async () => {
    const secret = testSecret('current');
    const { hooks, message, job, deliveryId } = await oneMessage({}, [secret]);
    hooks.sender.willAnswer(noAnswer('timed out after 15 s', { timedOut: true }), answered(200));
    await hooks.attemptDelivery.execute(attemptJob(job));
    const firstSentAt = hooks.clock.now();
    const [retry] = hooks.queue.take();

    // Early (beyond the 1 s of slack a job gets): not claimed, nothing sent.
    hooks.clock.set(new Date(retry.dueAt.getTime() - 1001));
    expect(await hooks.attemptDelivery.execute(attemptJob(retry))).toEqual({ kind: 'skipped' });
    expect(hooks.sender.requests).toHaveLength(1);

    hooks.clock.set(new Date(retry.dueAt.getTime() - 1000));
    expect(await hooks.attemptDelivery.execute(attemptJob(retry))).toMatchObject({ kind: 'attempted', verdict: 'succeeded' });

    const [first, second] = hooks.sender.requests;
    expect(second.headers['hook-id']).toBe(message.messageId);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['hook-timestamp'])).toBe(Math.floor(hooks.clock.now().getTime() / 1000));
    expect(Number(second.headers['hook-timestamp'])).toBeGreaterThan(Number(first.headers['hook-timestamp']));
    expect(second.headers['hook-signature']).not.toBe(first.headers['hook-signature']);
    expect(verifyAt(hooks.clock.now(), secret, second)).toEqual(JSON.parse(message.payload));
    expect(verifyAt(firstSentAt, secret, first)).toEqual(JSON.parse(message.payload));
    expect(hooks.deliveries.attempts.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.error])).toEqual([
      [1, null, 'timed out after 15 s'],
      [2, 200, null],
    ]);
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'SUCCEEDED', attemptsMade: 2 });
  });

  it('a stale job (its attempt already made) is skipped and sends nothing', async () => {
    const { hooks, job, deliveryId } = await oneMessage();
    hooks.sender.willAnswer(answered(503));
    await hooks.attemptDelivery.execute(attemptJob(job));
    const [retry] = hooks.queue.take();
    hooks.clock.set(retry.dueAt);

    // The first job again (a duplicate from the sweeper, a BullMQ retry): attemptsMade 0 is past.
    expect(await hooks.attemptDelivery.execute(attemptJob(job))).toEqual({ kind: 'skipped' });
    expect(await hooks.attemptDelivery.execute({ ...attemptJob(retry), attemptsMade: 2 })).toEqual({ kind: 'skipped' });
    expect(hooks.sender.requests).toHaveLength(1);
    expect(hooks.deliveries.attempts).toHaveLength(1);
    expect(hooks.queue.jobs).toEqual([]);
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'PENDING', attemptsMade: 1, nextAttemptAt: retry.dueAt });
  });

  it('two jobs of this process carrying the same attempt at once (a job of several, and the sweeper’s for one of them): it is made once', async () => {
    const { hooks, job } = await oneMessage();
    hooks.sender.willAnswer(answered(204), answered(204));
    const outcomes = await Promise.all([
      hooks.attemptDelivery.execute({ ...attemptJob(job), jobId: 'dlv_first.0.1' }),
      hooks.attemptDelivery.execute({ ...attemptJob(job), jobId: attemptJob(job).deliveryId }),
    ]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['attempted', 'skipped']);
    expect(hooks.sender.requests).toHaveLength(1);
    expect(hooks.deliveries.attempts).toHaveLength(1);
  });

  it('a delivery leased to another worker is skipped until the lease ends; this worker may take its own again', async () => {
    const { hooks, job, deliveryId } = await oneMessage();
    hooks.deliveries.patch(deliveryId, { leasedBy: 'worker-b', leasedUntil: new Date(hooks.clock.now().getTime() + 30_000) });
    expect(await hooks.attemptDelivery.execute(attemptJob(job))).toEqual({ kind: 'skipped' });

    // Its own lease (a job of this process retried after an error) does not stop it.
    hooks.deliveries.patch(deliveryId, { leasedBy: leaseHolder(hooks.settings.holder, attemptJob(job)) });
    hooks.sender.willAnswer(answered(500));
    expect(await hooks.attemptDelivery.execute(attemptJob(job))).toMatchObject({ kind: 'attempted' });

    const [retry] = hooks.queue.take();
    hooks.clock.set(retry.dueAt);
    hooks.deliveries.patch(deliveryId, { leasedBy: 'worker-b', leasedUntil: new Date(hooks.clock.now().getTime() + 1) });
    expect(await hooks.attemptDelivery.execute(attemptJob(retry))).toEqual({ kind: 'skipped' });
    hooks.clock.advance(2); // worker-b died: its lease has ended
    hooks.sender.willAnswer(answered(200));
    expect(await hooks.attemptDelivery.execute(attemptJob(retry))).toMatchObject({ kind: 'attempted', verdict: 'succeeded' });
    expect(hooks.sender.requests).toHaveLength(2);
  });

  it('holds the lease while sending, for leaseMs', async () => {
    const { hooks, job, deliveryId } = await oneMessage({ leaseMs: 45_000, holder: 'worker-x' });
    let leaseSeen: unknown;
    const send = hooks.sender.send.bind(hooks.sender);
    jest.spyOn(hooks.sender, 'send').mockImplementation(async (request) => {
      leaseSeen = hooks.deliveries.row(deliveryId);
      return send(request);
    });
    hooks.sender.willAnswer(answered(200));
    await hooks.attemptDelivery.execute(attemptJob(job));
    expect(leaseSeen).toMatchObject({ leasedBy: leaseHolder('worker-x', attemptJob(job)), leasedUntil: new Date(hooks.clock.now().getTime() + 45_000) });
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ leasedBy: null, leasedUntil: null });
  });

  it('a resend that lands while an attempt is in flight keeps its fresh schedule; the two attempts get distinct numbers', async () => {
    const { hooks, message, job, deliveryId } = await oneMessage();
    const send = hooks.sender.send.bind(hooks.sender);
    jest.spyOn(hooks.sender, 'send').mockImplementationOnce(async (request) => {
      await hooks.resendDelivery.execute({ organizationId: ENDPOINT.organizationId, endpointId: ENDPOINT.endpointId, messageId: message.messageId });
      return send(request);
    });
    hooks.sender.willAnswer(answered(200));
    expect(await hooks.attemptDelivery.execute(attemptJob(job))).toMatchObject({ kind: 'attempted', verdict: 'succeeded' });
    // The in-flight success did not overwrite the resend: the message is due again now.
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'PENDING', attemptsMade: 1, retryIndex: 0, nextAttemptAt: hooks.clock.now() });
    const queued = hooks.queue.take();
    const stale = queued.find((entry) => entry.attemptsMade === 0)!;
    const current = queued.find((entry) => entry.attemptsMade === 1)!;
    expect(await hooks.attemptDelivery.execute(attemptJob(stale))).toEqual({ kind: 'skipped' });
    hooks.sender.willAnswer(answered(200));
    expect(await hooks.attemptDelivery.execute(attemptJob(current))).toMatchObject({ kind: 'attempted', verdict: 'succeeded' });
    expect(hooks.deliveries.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'SUCCEEDED', attemptsMade: 2 });
  });

  it('a 3xx is a failure and is not followed', async () => {
    const { hooks, job, deliveryId } = await oneMessage();
    hooks.sender.willAnswer(answered(302));
    expect(await hooks.attemptDelivery.execute(attemptJob(job))).toMatchObject({ kind: 'attempted', verdict: 'failed' });
    expect(hooks.deliveries.attempts[0]).toMatchObject({ statusCode: 302, error: 'HTTP 302: redirects are not followed' });
    expect(hooks.deliveries.row(deliveryId).status).toBe('PENDING');
  });

  it('a Retry-After is waited, at most twice the scheduled wait', async () => {
    const waited = await oneMessage();
    waited.hooks.sender.willAnswer(answered(429, { retryAfterMs: 8000 }));
    await waited.hooks.attemptDelivery.execute(attemptJob(waited.job));
    expect(waited.hooks.deliveries.row(waited.deliveryId).nextAttemptAt).toEqual(new Date(waited.hooks.clock.now().getTime() + 8000));

    const capped = await oneMessage();
    capped.hooks.sender.willAnswer(answered(503, { retryAfterMs: 3_600_000 }));
    await capped.hooks.attemptDelivery.execute(attemptJob(capped.job));
    expect(capped.hooks.deliveries.row(capped.deliveryId).nextAttemptAt).toEqual(new Date(capped.hooks.clock.now().getTime() + 10_000));
    expect(capped.hooks.queue.jobs[0].dueAt).toEqual(new Date(capped.hooks.clock.now().getTime() + 10_000));
  });

  it('once the schedule is spent: FAILED, nothing more queued', async () => {
    const { hooks, job, deliveryId } = await oneMessage({ retrySchedule: [1000, 2000] });
    hooks.sender.willAnswer(answered(500), noAnswer('connection failed (ECONNREFUSED)'), answered(502));
    let next = job;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      hooks.clock.set(next.dueAt);
      expect(await hooks.attemptDelivery.execute(attemptJob(next))).toMatchObject({ kind: 'attempted', verdict: 'failed' });
      const queued = hooks.queue.take();
      if (attempt < 3) {
        expect(queued).toHaveLength(1);
        next = queued[0];
      } else {
        expect(queued).toEqual([]);
      }
    }
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'FAILED', attemptsMade: 3, retryIndex: 3, nextAttemptAt: null });
    expect(hooks.deliveries.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3]);
    expect(hooks.sender.unused).toBe(0);
    // One more job for it (a duplicate) finds nothing to do.
    expect(await hooks.attemptDelivery.execute(attemptJob(next))).toEqual({ kind: 'skipped' });
  });

  it("410 Gone: FAILED at once and the endpoint disabled ('gone')", async () => {
    const { hooks, job, deliveryId } = await oneMessage();
    hooks.sender.willAnswer(answered(410));
    expect(await hooks.attemptDelivery.execute(attemptJob(job))).toMatchObject({ kind: 'attempted', verdict: 'gone' });
    expect(hooks.deliveries.row(deliveryId)).toMatchObject({ status: 'FAILED', attemptsMade: 1, nextAttemptAt: null });
    expect(hooks.deliveries.attempts[0]).toMatchObject({ statusCode: 410, error: 'HTTP 410' });
    expect(hooks.queue.jobs).toEqual([]);
    expect(hooks.endpoints.disabled).toEqual([{ endpointId: ENDPOINT.endpointId, reason: 'gone' }]);
  });

  it("disables a failing endpoint ('failing') once it reached minFailures, when afterMs has also passed", async () => {
    const { hooks, job, deliveryId } = await oneMessage({ retrySchedule: Array(10).fill(10_000), disableRules: { minFailures: 3, afterMs: 60_000 } });
    const failingSince = hooks.clock.now();
    let next = job;
    // Three failures within ~30 s: enough of them, but not for long enough.
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      hooks.clock.set(next.dueAt);
      hooks.sender.willAnswer(answered(500));
      await hooks.attemptDelivery.execute(attemptJob(next));
      [next] = hooks.queue.take();
    }
    expect(hooks.endpoints.disabled).toEqual([]);
    expect(hooks.health.of(ENDPOINT.endpointId)).toEqual({ consecutiveFailures: 3, failingSince });

    hooks.clock.set(new Date(failingSince.getTime() + 60_000));
    hooks.sender.willAnswer(noAnswer('timed out after 15 s', { timedOut: true }));
    await hooks.attemptDelivery.execute(attemptJob(next));
    expect(hooks.endpoints.disabled).toEqual([{ endpointId: ENDPOINT.endpointId, reason: 'failing' }]);
    // The attempt is on record and its retry queued; the retry then finds the endpoint disabled.
    expect(hooks.deliveries.attempts).toHaveLength(4);
    [next] = hooks.queue.take();
    hooks.clock.set(next.dueAt);
    expect(await hooks.attemptDelivery.execute(attemptJob(next))).toEqual({ kind: 'dropped' });
    expect(hooks.deliveries.row(deliveryId).status).toBe('DROPPED');
    expect(hooks.sender.requests).toHaveLength(4);
  });

  it('does not disable an endpoint failing for long but fewer than minFailures times; a success starts the run again', async () => {
    const { hooks, job } = await oneMessage({ retrySchedule: Array(10).fill(3_600_000), disableRules: { minFailures: 3, afterMs: 60_000 } });
    hooks.sender.willAnswer(answered(500), answered(500), answered(200));
    let next = job;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      hooks.clock.set(next.dueAt);
      await hooks.attemptDelivery.execute(attemptJob(next));
      [next] = hooks.queue.take();
    }
    // Two failures over hours, then a success: the run is over.
    expect(hooks.endpoints.disabled).toEqual([]);
    expect(hooks.health.of(ENDPOINT.endpointId)).toEqual({ consecutiveFailures: 0, failingSince: null });

    // A new run of two failures on another message, long after: still not disabled.
    const message = hooks.message([{ endpointId: ENDPOINT.endpointId, organizationId: ENDPOINT.organizationId, dropped: false }]);
    await hooks.recordMessage.execute(message);
    [next] = hooks.queue.take();
    const since = hooks.clock.now();
    hooks.sender.willAnswer(answered(500), answered(500));
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      hooks.clock.set(next.dueAt);
      await hooks.attemptDelivery.execute(attemptJob(next));
      [next] = hooks.queue.take();
    }
    expect(hooks.health.of(ENDPOINT.endpointId)).toEqual({ consecutiveFailures: 2, failingSince: since });
    expect(hooks.endpoints.disabled).toEqual([]);
  });

  it('an inactive, unknown or secretless endpoint: DROPPED, nothing sent, nothing logged or queued', async () => {
    const hooks = webhookDeliveryWorkerInMemory();
    hooks.endpoints.add({ endpointId: 'ep_disabled', organizationId: 'org_1', url: ENDPOINT.url, secrets: [testSecret('a')], active: false });
    hooks.endpoints.add({ endpointId: 'ep_secretless', organizationId: 'org_1', url: ENDPOINT.url, secrets: [] });
    await hooks.recordMessage.execute(
      hooks.message(['ep_disabled', 'ep_deleted', 'ep_secretless'].map((endpointId) => ({ endpointId, organizationId: 'org_1', dropped: false }))),
    );
    for (const job of hooks.queue.take()) {
      expect(await hooks.attemptDelivery.execute(attemptJob(job))).toEqual({ kind: 'dropped' });
      expect(hooks.deliveries.row(job.deliveryId)).toMatchObject({ status: 'DROPPED', attemptsMade: 0, nextAttemptAt: null, leasedUntil: null });
    }
    expect(hooks.sender.requests).toEqual([]);
    expect(hooks.deliveries.attempts).toEqual([]);
    expect(hooks.queue.jobs).toEqual([]);
    expect(hooks.endpoints.disabled).toEqual([]);
  });

  it('sends to the URL the endpoint has now, not the one it had when the message was recorded', async () => {
    const { hooks, job } = await oneMessage();
    hooks.endpoints.add({ ...ENDPOINT, url: 'https://hooks.example.com/moved', secrets: [testSecret('rotated')] });
    hooks.sender.willAnswer(answered(200));
    await hooks.attemptDelivery.execute(attemptJob(job));
    expect(hooks.sender.requests[0].url).toBe('https://hooks.example.com/moved');
    expect(verifyAt(hooks.clock.now(), testSecret('rotated'), hooks.sender.requests[0])).toBeDefined();
  });
});
