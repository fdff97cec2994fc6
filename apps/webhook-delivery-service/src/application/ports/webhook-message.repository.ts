import type { WebhookMessage } from '../../domain/webhook-message';

export abstract class WebhookMessageRepository {
  /** False when the event was fanned out already (its message exists): nothing is written twice. */
  abstract insert(message: WebhookMessage): Promise<boolean>;
  /**
   * A message with no delivery, kept for the record: nothing depends on whether it is new, so
   * it goes with the unit of work's last statement (a repeat writes nothing).
   */
  abstract record(message: WebhookMessage): Promise<void>;
}
