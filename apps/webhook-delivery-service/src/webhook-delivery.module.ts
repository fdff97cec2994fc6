import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, pingHandlerFor, ServiceRuntimeModule } from '@pfs/messaging';
import { OrganizationVerificationUpdatedSubscriber } from './adapters/messaging/organization-verification-updated.subscriber';

/**
 * Binds this service's ports to their adapters and its queue to its handlers. Its domain
 * arrives with its own issue; until then it owns its schema, consumes its queue and answers
 * `system.ping` and health.
 */
@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'webhook-delivery', schema: 'webhook' })],
  providers: [
    ...commandConsumerProvider('webhook-delivery', [pingHandlerFor('webhook-delivery')]),
    // Verification events: acknowledged until endpoints exist to fan out to.
    ...eventConsumerProvider('webhook-delivery', [OrganizationVerificationUpdatedSubscriber]),
  ],
})
export class WebhookDeliveryModule {}
