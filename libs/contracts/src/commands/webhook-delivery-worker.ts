import { z } from 'zod';
import type { PageView, WebhookDeliveryAttemptView, WebhookDeliveryView, WebhookRecoveryView } from '../views';
import { mutation, pageRequestSchema, query } from './command-definition';
import { systemCommands } from './system';
import { traceCarrierSchema } from '../jobs';

/** The gateway checks the endpoint is the organization's (webhook-delivery `endpoints.get`) first. */
const endpoint = z.object({ organizationId: z.string(), endpointId: z.string() });

/**
 * The webhook-delivery worker's queue: the attempt log and putting messages back in the queue.
 * Each command's use case is `apps/webhook-delivery-worker/src/application/use-cases/<verb>-<resource>/`.
 * (The attempts themselves run from the worker's own `webhook-deliveries` queue: WEBHOOK_DELIVERY_JOBS.)
 */
export const webhookDeliveryWorkerCommands = {
  ...systemCommands,
  /** Every attempt to the endpoint, newest first. */
  'delivery-attempts.list': query(endpoint.extend({ page: pageRequestSchema })).returns<PageView<WebhookDeliveryAttemptView>>(),
  /** The message again, now, with a fresh retry schedule; `not_found` if it was never due to this endpoint. */
  'deliveries.resend': mutation(endpoint.extend({ messageId: z.string() })).returns<WebhookDeliveryView>(),
  /** Every message created in [since, until) whose delivery to the endpoint failed or was dropped, again. */
  'deliveries.recover': mutation(endpoint.extend({ since: z.string(), until: z.string().nullable() })).returns<WebhookRecoveryView>(),
} as const;

/** The worker's own queue of attempts (only the worker adds to it and consumes it). */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-deliveries';

/** One attempt a `deliveries.attempt` job asks for: its own, or one it carries in `also`. */
const attemptOfJob = z.object({
  deliveryId: z.string(),
  /** Attempts made before this one: a job for an attempt already made is stale and skipped. */
  attemptsMade: z.number().int().nonnegative(),
  /** Epoch ms the attempt was due at. */
  dueAt: z.number().int(),
  /** The trace context of whoever queued the attempt (present only when it traces). */
  trace: traceCarrierSchema.optional().catch(undefined),
});

/**
 * The jobs of that queue, declared once: `deliveries.attempt` is answered by
 * `use-cases/attempt-delivery/`. A job is a pointer to a delivery row in PostgreSQL (the store),
 * never its body or secret: Redis is only the transport.
 */
export const WEBHOOK_DELIVERY_JOBS = {
  'deliveries.attempt': attemptOfJob.extend({
    endpointId: z.string(),
    /**
     * Further first attempts to the same endpoint queued with this one (messages recorded
     * together), made in turn under the job's endpoint slot: one job, not one each.
     */
    also: z.array(attemptOfJob).max(100).optional(),
  }),
} as const;
export type WebhookDeliveryJobName = keyof typeof WEBHOOK_DELIVERY_JOBS;
export type DeliveryAttemptJob = z.output<(typeof WEBHOOK_DELIVERY_JOBS)['deliveries.attempt']>;
