import type { CommandPayload } from '@pfs/contracts';

export type RecoverDeliveriesCommand = CommandPayload<'webhook-delivery-worker', 'deliveries.recover'>;
