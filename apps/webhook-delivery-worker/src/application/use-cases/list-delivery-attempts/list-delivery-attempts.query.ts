import type { CommandPayload } from '@pfs/contracts';

export type ListDeliveryAttemptsQuery = CommandPayload<'webhook-delivery-worker', 'delivery-attempts.list'>;
