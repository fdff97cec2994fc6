import type { WebhookMessage } from '../../domain/webhook-message';

export abstract class WebhookMessageRepository {
  /** False when the event was fanned out already (its message exists): nothing is written twice. */
  abstract insert(message: WebhookMessage): Promise<boolean>;
  /**
   * Writes the message with the unit of work's writes (its one statement in a write-only unit):
   * a message of the event already there refuses the whole unit.
   */
  abstract record(message: WebhookMessage): Promise<void>;
}
