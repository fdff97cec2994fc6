import type { CommandPayload } from '@pfs/contracts';

export type CreateEndpointCommand = CommandPayload<'webhook-delivery', 'endpoints.create'>;
