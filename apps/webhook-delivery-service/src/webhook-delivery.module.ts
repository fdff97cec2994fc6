import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { OrganizationVerificationUpdatedSubscriber } from './adapters/messaging/organization-verification-updated.subscriber';
import { TransactionStatusUpdatedSubscriber } from './adapters/messaging/transaction-status-updated.subscriber';
import { WEBHOOK_DELIVERY_COMMAND_HANDLERS } from './adapters/messaging/webhook-delivery.command-handlers';
import { WEBHOOK_DELIVERY_PROVIDERS, WEBHOOK_DELIVERY_SERVICE } from './webhook-delivery.providers';

/**
 * Binds this service's ports to their adapters and its queue to its use cases: webhook endpoints
 * and their secrets, and the fan-out of webhook events to them (messages handed to the worker).
 */
@Module({
  imports: [ServiceRuntimeModule.forService(WEBHOOK_DELIVERY_SERVICE)],
  providers: [
    ...WEBHOOK_DELIVERY_PROVIDERS,
    ...commandConsumerProvider('webhook-delivery', WEBHOOK_DELIVERY_COMMAND_HANDLERS),
    ...eventConsumerProvider('webhook-delivery', [OrganizationVerificationUpdatedSubscriber, TransactionStatusUpdatedSubscriber]),
  ],
})
export class WebhookDeliveryModule {}
