import type { CommandPayload } from '@pfs/contracts';

export type GetEndpointSecretQuery = CommandPayload<'webhook-delivery', 'endpoint-secrets.get'>;
