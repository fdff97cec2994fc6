import type { CommandPayload } from '@pfs/contracts';

export type GetEndpointTargetQuery = CommandPayload<'webhook-delivery', 'endpoint-targets.get'>;
