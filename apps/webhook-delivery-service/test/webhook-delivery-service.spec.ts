import { describeServiceProcess, isolateQueues } from '@pfs/testing';

isolateQueues('webhook-delivery');

describeServiceProcess('webhook-delivery', async () => (await import('../src/webhook-delivery.module')).WebhookDeliveryModule);
