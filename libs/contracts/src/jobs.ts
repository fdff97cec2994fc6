import { z } from 'zod';
import type { CommandService } from './commands';
import type { ErrorPayload } from './errors';

/**
 * What travels on the queues besides the payloads: the services, their queue names and the
 * metadata of a command job. The payloads themselves are declared per service in
 * `commands/<service>.ts` and `events/`.
 */
export const SERVICES = [
  'gateway',
  'organization',
  'ledger',
  'quote',
  'beneficiary',
  'webhook-delivery',
  'webhook-delivery-worker',
] as const;
export type ServiceName = (typeof SERVICES)[number];

export function eventQueueName(service: ServiceName): string {
  return `${service}-events`;
}

/**
 * The name of an event job that carries several events for one subscriber (the relay's, for the
 * events of one hand-off or poll): each is handled as if it had come alone. Every other event job
 * is named after its event's type and carries that one event, under the event's id.
 */
export const EVENT_BATCH_JOB = 'events.batch';

/** The data of an EVENT_BATCH_JOB: the events, in the order they were written. */
export interface EventBatchJobData {
  events: unknown[];
}

/** Where a subscriber's events go once they have failed too often (listed and replayed by the operator CLI). */
export function deadLetterQueueName(service: ServiceName): string {
  return `${service}-events-dead`;
}

/**
 * The W3C trace context of the span that sent a command, wrote an event or queued a delivery,
 * so the hop that takes it continues the same trace. Absent when tracing is off.
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** Checks a carrier read from a queue; anything else is dropped rather than refused. */
export const traceCarrierSchema = z.object({ traceparent: z.string().max(128), tracestate: z.string().max(512).optional() });

/** Metadata every command carries, so logs join up across hops, stale work is skipped and a repeat changes nothing. */
export interface CommandMeta {
  requestId: string;
  /**
   * Identifies the command across re-deliveries and client retries: the gateway derives it from
   * the organization, the `Service-On-Behalf-Of` target and the `Idempotency-Key` (random per
   * request without one). A mutation runs at most once per id; a repeat gets the stored result.
   */
  commandId: string;
  /** Redis channel on which the sender awaits the reply. */
  replyTo: string;
  /** Epoch milliseconds after which the sender has given up; the handler skips the job. */
  deadline: number;
  /** The sender's trace context (present only when the sender traces). */
  trace?: TraceCarrier;
}

export interface CommandJobData<P = unknown> {
  payload: P;
  meta: CommandMeta;
}

/**
 * A failure names `unavailable` when the handler could not reach another service it had to ask:
 * the sender raises the same "service unavailable" it would for that service itself, so the
 * client gets a retryable 503 naming it rather than a 500.
 */
export type CommandReply<R = unknown> = { ok: true; value: R } | { ok: false; error: ErrorPayload; unavailable?: CommandService };

export interface CommandReplyMessage<R = unknown> {
  jobId: string;
  reply: CommandReply<R>;
}
