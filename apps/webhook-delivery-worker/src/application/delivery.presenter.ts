import type { WebhookDeliveryAttemptView, WebhookDeliveryView } from '@pfs/contracts';
import type { DeliverySchedule } from '../domain/delivery';
import type { AttemptRecord } from './ports/delivery.repository';

export function presentAttempt(attempt: AttemptRecord): WebhookDeliveryAttemptView {
  return {
    object: 'webhook_delivery_attempt',
    id: attempt.id,
    messageId: attempt.messageId,
    eventType: attempt.eventType,
    attempt: attempt.attempt,
    attemptedAt: attempt.attemptedAt.toISOString(),
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    error: attempt.error,
    response: attempt.response,
  };
}

export function presentDelivery(messageId: string, endpointId: string, schedule: DeliverySchedule): WebhookDeliveryView {
  return { object: 'webhook_delivery', messageId, endpointId, status: schedule.status, nextAttemptAt: schedule.nextAttemptAt?.toISOString() ?? null };
}
