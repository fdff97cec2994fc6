import type { WebhookMessage } from '../../domain/webhook-message';

export abstract class WebhookMessageRepository {
  /** False when the event was fanned out already (its message exists): nothing is written twice. */
  abstract insert(message: WebhookMessage): Promise<boolean>;
}
