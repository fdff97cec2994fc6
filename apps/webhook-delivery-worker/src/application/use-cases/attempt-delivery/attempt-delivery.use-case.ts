import { Injectable } from '@nestjs/common';
import { webhookSignatureHeaders } from '@pfs/codecs';
import { Clock, IdGenerator, RandomSource } from '@pfs/contracts';
import { answerError, verdictOf, type AttemptResult, type AttemptVerdict } from '../../../domain/attempt-result';
import { afterAttempt } from '../../../domain/delivery';
import { shouldDisable } from '../../../domain/endpoint-health';
import { DeliveryQueue } from '../../ports/delivery-queue';
import { DeliverySettings } from '../../ports/delivery-settings';
import { DeliveryRepository } from '../../ports/delivery.repository';
import { EndpointDirectory } from '../../ports/endpoint-directory';
import { WebhookSender } from '../../ports/webhook-sender';
import { randomUnit } from '../../random-unit';
import type { AttemptDeliveryCommand } from './attempt-delivery.command';

export const WEBHOOK_USER_AGENT = 'PartnerFinanceService-Webhooks/1.0';

/**
 * The lease names this process, the job and the attempt: a BullMQ retry of the job takes it back,
 * any other job (a resend's, another worker's, the sweeper's for a delivery that a job of several
 * also carries) is another holder.
 */
export function leaseHolder(processHolder: string, command: AttemptDeliveryCommand): string {
  return `${processHolder}/${command.jobId ?? ''}/${command.deliveryId}.${command.attemptsMade}.${command.dueAt}`;
}

/** What a job came to: `skipped` when it was stale or another worker holds the delivery. */
export type AttemptOutcome =
  | { kind: 'skipped' }
  | { kind: 'dropped' }
  /** `disabled`: the attempt disabled its endpoint (a 410, or failures past the rules). */
  | { kind: 'attempted'; verdict: AttemptVerdict; result: AttemptResult; disabled: 'gone' | 'failing' | null };

/**
 * One attempt of one delivery: lease the row, ask the webhook-delivery service where the
 * endpoint is now and what it signs with, sign at the moment of sending (spec 6.3, a fresh
 * timestamp per attempt, the same `hook-id` always), send, and record the attempt with the
 * delivery's next step and the endpoint's run of failures in one statement. The next attempt is
 * queued after it; a 410, or failures past WEBHOOK_DISABLE_AFTER, disable the endpoint.
 */
@Injectable()
export class AttemptDeliveryUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly endpoints: EndpointDirectory,
    private readonly sender: WebhookSender,
    private readonly queue: DeliveryQueue,
    private readonly settings: DeliverySettings,
    private readonly ids: IdGenerator,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  async execute(command: AttemptDeliveryCommand): Promise<AttemptOutcome> {
    const claimedAt = this.clock.now();
    const leaseUntil = new Date(claimedAt.getTime() + this.settings.leaseMs);
    const holder = leaseHolder(this.settings.holder, command);
    const delivery = await this.deliveries.claim(command.deliveryId, command.attemptsMade, holder, leaseUntil, claimedAt);
    if (!delivery) return { kind: 'skipped' };
    const target = await this.endpoints.target(delivery.endpointId);
    if (!target?.active || !target.secrets.length) {
      // Disabled or deleted: dropped, not delivered later (api-decisions §8); recover re-sends it.
      await this.deliveries.drop(delivery.id);
      return { kind: 'dropped' };
    }

    const attemptedAt = this.clock.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      ...webhookSignatureHeaders(target.secrets, delivery.messageId, Math.floor(attemptedAt.getTime() / 1000), delivery.payload),
    };
    const result = await this.sender.send({ url: target.url, headers, body: delivery.payload });
    const verdict = verdictOf(result);
    const now = this.clock.now();
    const next = afterAttempt(delivery, verdict, result, now, this.settings.retrySchedule, () => randomUnit(this.random));

    // One statement, no transaction: the attempt row, the delivery's next step and the endpoint's
    // run of failures are written together; a retry that is not queued after it is due anyway,
    // for the sweeper. An interactive transaction would cost more CPU than the attempt itself.
    const recorded = await this.deliveries.recordAttempt(
      {
        id: this.ids.next('webhookAttempt'),
        deliveryId: delivery.id,
        messageId: delivery.messageId,
        endpointId: delivery.endpointId,
        organizationId: delivery.organizationId,
        eventType: delivery.eventType,
        attempt: next.attemptsMade,
        attemptedAt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: answerError(result),
        response: result.response,
      },
      next,
      holder,
      { outcome: verdict === 'succeeded' ? 'success' : 'failure', at: now },
    );
    const disable: 'gone' | 'failing' | null =
      verdict === 'gone' ? 'gone' : verdict !== 'succeeded' && shouldDisable(recorded.health, now, this.settings.disableRules) ? 'failing' : null;
    const stored = recorded.schedule;
    if (stored.status === 'PENDING' && stored.nextAttemptAt) {
      await this.queue.enqueue([{ deliveryId: delivery.id, endpointId: delivery.endpointId, attemptsMade: stored.attemptsMade, dueAt: stored.nextAttemptAt }]);
    }
    // The attempt is on record whatever the service answers. If it cannot be
    // reached, the error fails this job; the endpoint's next failure (or 410) asks again.
    if (disable) await this.endpoints.disable(delivery.endpointId, disable);
    return { kind: 'attempted', verdict, result, disabled: disable };
  }
}
