import { commandHandlers, PingUseCase } from '@pfs/messaging';
import { CreateEndpointUseCase } from '../../application/use-cases/create-endpoint/create-endpoint.use-case';
import { DisableEndpointUseCase } from '../../application/use-cases/disable-endpoint/disable-endpoint.use-case';
import { DeleteEndpointUseCase } from '../../application/use-cases/delete-endpoint/delete-endpoint.use-case';
import { GetEndpointSecretUseCase } from '../../application/use-cases/get-endpoint-secret/get-endpoint-secret.use-case';
import { GetEndpointTargetUseCase } from '../../application/use-cases/get-endpoint-target/get-endpoint-target.use-case';
import { GetEndpointUseCase } from '../../application/use-cases/get-endpoint/get-endpoint.use-case';
import { ListEndpointsUseCase } from '../../application/use-cases/list-endpoints/list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from '../../application/use-cases/rotate-endpoint-secret/rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from '../../application/use-cases/update-endpoint/update-endpoint.use-case';

/**
 * The webhook-delivery service's queue: one line per command of
 * `libs/contracts/src/commands/webhook-delivery.ts`. `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const WEBHOOK_DELIVERY_COMMAND_HANDLERS = commandHandlers('webhook-delivery', {
  'system.ping': PingUseCase,
  'endpoints.create': CreateEndpointUseCase,
  'endpoints.list': ListEndpointsUseCase,
  'endpoints.get': GetEndpointUseCase,
  'endpoints.update': UpdateEndpointUseCase,
  'endpoints.delete': DeleteEndpointUseCase,
  'endpoint-secrets.get': GetEndpointSecretUseCase,
  'endpoint-secrets.rotate': RotateEndpointSecretUseCase,
  'endpoint-targets.get': GetEndpointTargetUseCase,
  'endpoints.disable': DisableEndpointUseCase,
});
