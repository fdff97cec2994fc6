import type { CommandPayload } from '@pfs/contracts';

export type ResendDeliveryCommand = CommandPayload<'webhook-delivery-worker', 'deliveries.resend'>;
