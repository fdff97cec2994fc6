import type { CommandPayload } from '@pfs/contracts';

export type DisableEndpointCommand = CommandPayload<'webhook-delivery', 'endpoints.disable'>;
