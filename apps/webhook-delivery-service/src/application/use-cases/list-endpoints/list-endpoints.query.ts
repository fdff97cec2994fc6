import type { CommandPayload } from '@pfs/contracts';

export type ListEndpointsQuery = CommandPayload<'webhook-delivery', 'endpoints.list'>;
