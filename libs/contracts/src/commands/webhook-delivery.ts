import { z } from 'zod';
import type {
  PageView,
  WebhookEndpointDeletionView,
  WebhookEndpointDisablingView,
  WebhookEndpointTargetView,
  WebhookEndpointView,
  WebhookSecretView,
} from '../views';
import { mutation, pageRequestSchema, query } from './command-definition';
import { systemCommands } from './system';

const endpoint = z.object({ organizationId: z.string(), endpointId: z.string() });

/**
 * The webhook-delivery service's queue: endpoints and their secrets (spec 4.9). Each command's
 * use case is `apps/webhook-delivery-service/src/application/use-cases/<verb>-<resource>/`.
 */
export const webhookDeliveryCommands = {
  ...systemCommands,
  /** Registers a URL (checked against the SSRF rules, its host resolved) with a new secret. */
  'endpoints.create': mutation(
    z.object({ organizationId: z.string(), url: z.string(), eventTypes: z.array(z.string()), description: z.string().nullable() }),
  ).returns<WebhookEndpointView>(),
  'endpoints.list': query(z.object({ organizationId: z.string(), page: pageRequestSchema })).returns<PageView<WebhookEndpointView>>(),
  /** One of the organization's endpoints; `not_found` for anything else. */
  'endpoints.get': query(endpoint).returns<WebhookEndpointView>(),
  /** A field left out is unchanged; `disabled` moves the endpoint between enabled and disabled. */
  'endpoints.update': mutation(
    endpoint.extend({
      url: z.string().optional(),
      eventTypes: z.array(z.string()).optional(),
      description: z.string().nullable().optional(),
      disabled: z.boolean().optional(),
    }),
  ).returns<WebhookEndpointView>(),
  /** Removes the endpoint: deliveries stop; its id answers `not_found` from then on. */
  'endpoints.delete': mutation(endpoint).returns<WebhookEndpointDeletionView>(),
  'endpoint-secrets.get': query(endpoint).returns<WebhookSecretView>(),
  /** A new secret; the old one verifies until `gracePeriodSeconds` from now (0: stops at once). */
  /** The delivery worker, at an attempt: url, state and sealed secrets of an endpoint (deleted ones too: inactive). */
  'endpoint-targets.get': query(z.object({ endpointId: z.string() })).returns<WebhookEndpointTargetView | null>(),
  /** The delivery worker disables an endpoint: a 410 Gone, or failures past WEBHOOK_DISABLE_AFTER. */
  'endpoints.disable': mutation(z.object({ endpointId: z.string(), reason: z.enum(['gone', 'failing']) })).returns<WebhookEndpointDisablingView>(),
  'endpoint-secrets.rotate': mutation(endpoint.extend({ gracePeriodSeconds: z.number().int().min(0).max(86400) })).returns<WebhookSecretView>(),
} as const;
