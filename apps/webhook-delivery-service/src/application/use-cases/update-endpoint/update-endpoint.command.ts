import type { CommandPayload } from '@pfs/contracts';

export type UpdateEndpointCommand = CommandPayload<'webhook-delivery', 'endpoints.update'>;
