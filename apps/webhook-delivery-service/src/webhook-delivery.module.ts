import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { OrganizationVerificationUpdatedSubscriber } from './adapters/messaging/organization-verification-updated.subscriber';
import { TransactionStatusUpdatedSubscriber } from './adapters/messaging/transaction-status-updated.subscriber';
import { WEBHOOK_DELIVERY_COMMAND_HANDLERS } from './adapters/messaging/webhook-delivery.command-handlers';

/**
 * Binds this service's ports to their adapters and its queue to its use cases. Its domain
 * arrives with its own issue; until then it owns its schema, consumes its queue and answers
 * `system.ping` and health.
 */
@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'webhook-delivery', schema: 'webhook' })],
  providers: [
    ...commandConsumerProvider('webhook-delivery', WEBHOOK_DELIVERY_COMMAND_HANDLERS),
    // Webhook events: acknowledged until endpoints exist to fan out to.
    ...eventConsumerProvider('webhook-delivery', [OrganizationVerificationUpdatedSubscriber, TransactionStatusUpdatedSubscriber]),
  ],
})
export class WebhookDeliveryModule {}
