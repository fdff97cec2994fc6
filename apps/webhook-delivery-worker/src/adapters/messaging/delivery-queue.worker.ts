import { WEBHOOK_DELIVERY_JOBS, WEBHOOK_DELIVERY_QUEUE, type DeliveryAttemptJob, type WebhookDeliveryJobName } from '@pfs/contracts';
import { randomUUID } from 'node:crypto';
import { buildHandlerRegistry, createProducerConnection, createRedisConnection, type RedisClient } from '@pfs/messaging';
import { annotateSpan, inSpan, runWithRequestId, tracingEnabled, type Logger, type WebhookAttemptMetrics } from '@pfs/platform';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { AttemptDeliveryCommand } from '../../application/use-cases/attempt-delivery/attempt-delivery.command';
import type { AttemptDeliveryUseCase, AttemptOutcome } from '../../application/use-cases/attempt-delivery/attempt-delivery.use-case';
import type { AttemptJob, InProcessAttempts } from './bullmq-delivery.queue';
import { EndpointSlots } from './endpoint-slots';

export interface DeliveryWorkerOptions {
  redisUrl: string;
  prefix: string;
  /** Attempts in flight in this process (WEBHOOK_WORKER_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight to one endpoint at once, across every worker process (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** How long an endpoint slot stays taken when its worker dies before giving it back. */
  slotLeaseMs: number;
}

type JobHandler = { name: WebhookDeliveryJobName; run(data: AttemptDeliveryCommand): Promise<AttemptOutcome> };

/** A job over an endpoint's cap waits this long for a slot before going back to the queue. */
const SLOT_WAIT_MS = 1000;

/**
 * Consumes `webhook-deliveries`. Receivers are isolated from one another: at most `perEndpoint`
 * attempts to one endpoint run at once, across every worker process (`EndpointSlots`, in Redis). A job over that cap waits for a slot
 * while the endpoint's attempts keep ending (at most `SLOT_WAIT_MS`); once they stop ending it
 * goes back to the delayed set (backing off up to 5 s) instead of holding one of the `concurrency`
 * slots, so an endpoint that hangs for 15 s on every request, or has thousands of messages
 * failing, leaves the other endpoints' deliveries on time. A job may carry further first attempts to
 * its endpoint (`also`): they are made in turn under the same slot. A handler that throws
 * (PostgreSQL down) fails the job for BullMQ to retry; the rows stay due either way, for the sweeper.
 *
 * First attempts recorded in this process, and deliveries its sweeper finds overdue, are made
 * here without a job when it has room (`attemptHere`): the same slots, leases and attempts, one
 * hop of the queue fewer.
 */
export class DeliveryQueueWorker implements InProcessAttempts {
  private readonly handlers: Map<string, JobHandler>;
  private slots?: EndpointSlots;
  private slotConnection?: RedisClient;
  private connection?: RedisClient;
  private worker?: Worker;
  /** Attempts made without a job, in flight, by job id. */
  private readonly here = new Map<string, Promise<void>>();
  private closing = false;

  constructor(
    attempt: AttemptDeliveryUseCase,
    private readonly options: DeliveryWorkerOptions,
    private readonly logger: Logger,
    private readonly metrics: WebhookAttemptMetrics,
  ) {
    // The job name leads to its use case; a job with no handler, or two, stops the worker here.
    this.handlers = buildHandlerRegistry<JobHandler>(WEBHOOK_DELIVERY_QUEUE, Object.keys(WEBHOOK_DELIVERY_JOBS), [{ name: 'deliveries.attempt', run: (data) => attempt.execute(data) }], (handler) => handler.name);
  }

  async start(): Promise<void> {
    if (this.worker) return;
    this.slotConnection = createProducerConnection(this.options.redisUrl, 'webhook-endpoint-slots');
    this.slots = new EndpointSlots(
      this.slotConnection,
      { perEndpoint: this.options.perEndpoint, maxWaiting: this.options.concurrency, maxWaitMs: SLOT_WAIT_MS, leaseMs: this.options.slotLeaseMs, prefix: this.options.prefix },
      randomUUID(),
    );
    this.connection = createRedisConnection(this.options.redisUrl, 'webhook-deliveries-worker');
    this.worker = new Worker(WEBHOOK_DELIVERY_QUEUE, (job: Job, token?: string) => this.process(job, token), {
      connection: this.connection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency,
    });
    this.worker.on('error', (error) => this.logger.error({ err: error.message }, 'delivery worker error'));
    await this.worker.waitUntilReady();
  }

  async close(): Promise<void> {
    this.closing = true;
    // Those made without a job finish (or go to the queue) first, like the worker's active jobs.
    await Promise.all(this.here.values());
    await this.worker?.close();
    this.connection?.disconnect();
    this.slotConnection?.disconnect();
  }

  /**
   * Makes a job's attempts in this process instead of queueing the job: at a low rate a job's hop
   * through Redis costs the worker more CPU than the attempt itself, and a delivery the sweeper
   * finds overdue does not wait on a queue that is not serving it. Refused (false) while
   * `concurrency` of them are in flight or the worker is closing, and the caller queues the job.
   * Taken, the job still goes to the queue (`queue`) when its endpoint has no slot free, where it
   * waits for one like any other, or when an attempt throws, for BullMQ's retries; its id names
   * the leases either way, so the job takes back those this process left. A job already in flight
   * here is taken without a second run: both would hold one lease. A process killed meanwhile
   * leaves its deliveries due, for the sweeper.
   */
  attemptHere(job: AttemptJob, queue: () => Promise<void>): boolean {
    if (this.here.has(job.id)) return true;
    if (!this.worker || this.closing || this.here.size >= this.options.concurrency) return false;
    const run = this.runHere(job, queue).finally(() => this.here.delete(job.id));
    this.here.set(job.id, run);
    return true;
  }

  private async runHere(job: AttemptJob, queue: () => Promise<void>): Promise<void> {
    try {
      if (await this.underSlot(job.data, job.id)) return;
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, endpointId: job.data.endpointId }, 'first attempts failed in process; queued for retries');
    }
    await queue().catch((error: unknown) =>
      this.logger.warn({ err: (error as Error).message, endpointId: job.data.endpointId }, 'first attempts not queued; the sweeper will queue them'),
    );
  }

  /**
   * The job's own attempt, then those it carries to the same endpoint, in turn under one slot of
   * the endpoint. False, with nothing attempted, when no slot came free in time. One that throws
   * ends it (the caller retries from the start: the attempts made are skipped then).
   */
  private async underSlot(data: DeliveryAttemptJob, jobId: string | undefined): Promise<boolean> {
    const slots = this.slots;
    const handler = this.handlers.get('deliveries.attempt');
    if (!slots || !handler) throw new Error('the delivery worker has not started');
    const slot = await slots.acquire(data.endpointId);
    if (!slot) return false;
    try {
      const { also, ...own } = data;
      await this.attempt(handler, { ...own, jobId });
      for (const other of also ?? []) {
        await slots.keep(slot);
        await this.attempt(handler, { ...other, endpointId: data.endpointId, jobId });
      }
      return true;
    } finally {
      await slots.release(slot);
    }
  }

  private async attempt(handler: JobHandler, data: AttemptDeliveryCommand): Promise<void> {
    const attempt = async () => {
      const outcome = await handler.run(data);
      if (tracingEnabled()) annotateSpan({ 'pfs.webhook.outcome': outcome.kind === 'attempted' ? outcome.verdict : outcome.kind, ...(outcome.kind === 'attempted' && outcome.result.statusCode !== null ? { 'http.response.status_code': outcome.result.statusCode } : {}) });
      if (outcome.kind === 'attempted') {
        this.metrics.record(outcome.verdict === 'succeeded' ? 'success' : outcome.result.timedOut ? 'timeout' : 'failure', outcome.result.durationMs, outcome.disabled);
        this.logger.info(
          { deliveryId: data.deliveryId, endpointId: data.endpointId, attempt: data.attemptsMade + 1, statusCode: outcome.result.statusCode, durationMs: outcome.result.durationMs, verdict: outcome.verdict },
          'webhook attempt made',
        );
      } else if (outcome.kind === 'dropped') {
        this.logger.info({ deliveryId: data.deliveryId, endpointId: data.endpointId }, 'delivery dropped: the endpoint is disabled or deleted');
      }
    };
    const traced = tracingEnabled()
      ? () =>
          inSpan(
            'webhook delivery attempt',
            {
              kind: 'consumer',
              parent: data.trace,
              requireParent: true,
              attributes: { 'pfs.webhook.endpoint_id': data.endpointId, 'pfs.webhook.delivery_id': data.deliveryId, 'pfs.webhook.attempt': data.attemptsMade + 1 },
            },
            attempt,
          )
      : attempt;
    await runWithRequestId(`dlv-${data.deliveryId}`, traced);
  }

  private async process(job: Job, token?: string): Promise<void> {
    const parsed = WEBHOOK_DELIVERY_JOBS['deliveries.attempt'].safeParse(job.data);
    if (!this.handlers.has(job.name) || !parsed.success) throw new UnrecoverableError(`not a job of ${WEBHOOK_DELIVERY_QUEUE}: ${job.name}`);
    const data = parsed.data;
    if (await this.underSlot(data, job.id)) return;
    const deferrals = ((job.data as { deferrals?: number }).deferrals ?? 0) + 1;
    await job.updateData({ ...data, deferrals });
    // Back off slowly (at most 5 s, jittered): a slot to this endpoint frees up within an attempt's time.
    await job.moveToDelayed(Date.now() + Math.min(5_000, 250 * deferrals) + Math.floor(Math.random() * 250), token);
    throw new DelayedError();
  }
}
