import { Module } from '@nestjs/common';
import { commandBusProvider, commandConsumerProvider, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { WEBHOOK_DELIVERY_WORKER_COMMAND_HANDLERS } from './adapters/messaging/webhook-delivery-worker.command-handlers';
import { WebhookMessageCreatedSubscriber } from './adapters/messaging/webhook-message-created.subscriber';
import { WEBHOOK_DELIVERY_WORKER_PROVIDERS, WEBHOOK_DELIVERY_WORKER_SERVICE } from './webhook-delivery-worker.providers';

/**
 * Binds the worker's ports to their adapters and its queues to its use cases: messages become
 * deliveries (`webhook-message.created`), deliveries become signed attempts (`webhook-deliveries`,
 * with the sweeper behind it), and the attempt log, resend and recover answer on its command queue.
 */
@Module({
  imports: [ServiceRuntimeModule.forService(WEBHOOK_DELIVERY_WORKER_SERVICE)],
  providers: [
    ...WEBHOOK_DELIVERY_WORKER_PROVIDERS,
    ...commandBusProvider(),
    ...commandConsumerProvider('webhook-delivery-worker', WEBHOOK_DELIVERY_WORKER_COMMAND_HANDLERS),
    ...eventConsumerProvider('webhook-delivery-worker', [WebhookMessageCreatedSubscriber]),
  ],
})
export class WebhookDeliveryWorkerModule {}
