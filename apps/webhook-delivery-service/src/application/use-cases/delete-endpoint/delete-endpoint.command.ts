import type { CommandPayload } from '@pfs/contracts';

export type DeleteEndpointCommand = CommandPayload<'webhook-delivery', 'endpoints.delete'>;
