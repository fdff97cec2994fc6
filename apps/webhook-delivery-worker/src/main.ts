import './tracing.setup';
import { runService } from '@pfs/messaging';
import { WebhookDeliveryWorkerModule } from './webhook-delivery-worker.module';

runService(WebhookDeliveryWorkerModule, 3106);
