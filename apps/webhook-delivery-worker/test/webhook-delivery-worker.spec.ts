import { describeServiceProcess, isolateQueues } from '@pfs/testing';

isolateQueues('webhook-delivery-worker');

describeServiceProcess('webhook-delivery-worker', async () => (await import('../src/webhook-delivery-worker.module')).WebhookDeliveryWorkerModule);
