import type { CursorPosition } from '@pfs/contracts';
import type { EndpointSubscription } from '../../domain/fan-out';
import type { WebhookEndpoint } from '../../domain/webhook-endpoint';

export abstract class WebhookEndpointRepository {
  abstract insert(endpoint: WebhookEndpoint): Promise<void>;
  /** Deleted endpoints included (the use case decides what is visible). */
  abstract findById(endpointId: string): Promise<WebhookEndpoint | null>;
  /** Locks the row until the unit of work ends, so two changes take turns. */
  abstract findByIdForUpdate(endpointId: string): Promise<WebhookEndpoint | null>;
  /** The organization's endpoints that are not deleted, newest first, strictly after `after`. */
  abstract list(organizationId: string, after: CursorPosition | null, limit: number): Promise<WebhookEndpoint[]>;
  abstract save(endpoint: WebhookEndpoint): Promise<void>;
  /**
   * What the fan-out needs of the endpoints of these organizations that are not deleted (disabled
   * ones included: the fan-out decides), oldest first; no secret is opened.
   */
  abstract findSubscriptionsOf(organizationIds: readonly string[]): Promise<EndpointSubscription[]>;
}
