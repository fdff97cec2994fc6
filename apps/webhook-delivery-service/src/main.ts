import './tracing.setup';
import { runService } from '@pfs/messaging';
import { WebhookDeliveryModule } from './webhook-delivery.module';

runService(WebhookDeliveryModule, 3105);
