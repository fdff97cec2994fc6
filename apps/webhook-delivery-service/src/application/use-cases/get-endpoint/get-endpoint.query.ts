import type { CommandPayload } from '@pfs/contracts';

export type GetEndpointQuery = CommandPayload<'webhook-delivery', 'endpoints.get'>;
