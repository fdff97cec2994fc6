import type { CommandPayload } from '@pfs/contracts';

export type RotateEndpointSecretCommand = CommandPayload<'webhook-delivery', 'endpoint-secrets.rotate'>;
