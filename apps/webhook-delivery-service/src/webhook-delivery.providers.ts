import type { Provider } from '@nestjs/common';
import { PLATFORM_CONFIG, type ServiceIdentity } from '@pfs/messaging';
import { SecretBox, type PlatformConfig } from '@pfs/platform';
import { destinationRulesFromEnv, DnsDestinationGuard } from './adapters/destinations/dns-destination-guard';
import { PrismaWebhookEndpointRepository, WEBHOOK_SECRET_BOX } from './adapters/persistence/prisma-webhook-endpoint.repository';
import { DestinationGuard } from './application/ports/destination-guard';
import { WebhookEndpointRepository } from './application/ports/webhook-endpoint.repository';
import { CreateEndpointUseCase } from './application/use-cases/create-endpoint/create-endpoint.use-case';
import { DeleteEndpointUseCase } from './application/use-cases/delete-endpoint/delete-endpoint.use-case';
import { GetEndpointSecretUseCase } from './application/use-cases/get-endpoint-secret/get-endpoint-secret.use-case';
import { GetEndpointUseCase } from './application/use-cases/get-endpoint/get-endpoint.use-case';
import { ListEndpointsUseCase } from './application/use-cases/list-endpoints/list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from './application/use-cases/rotate-endpoint-secret/rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from './application/use-cases/update-endpoint/update-endpoint.use-case';

export const WEBHOOK_DELIVERY_SERVICE: ServiceIdentity = { service: 'webhook-delivery', schema: 'webhook' };

/**
 * The key that seals signing secrets at rest: WEBHOOK_SECRET_KEY (required in production), else,
 * in the sandbox, one derived from the pepper for this purpose alone.
 */
export function webhookSecretBox(config: PlatformConfig, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const key = env.WEBHOOK_SECRET_KEY;
  if (key) return SecretBox.derive(key, 'webhook signing secrets');
  if (config.serviceEnv === 'production') throw new Error('WEBHOOK_SECRET_KEY is required in production');
  return SecretBox.derive(config.apiKeyPepper, 'webhook signing secrets');
}

/** Ports bound to adapters, and the use cases of the webhook-delivery service. */
export const WEBHOOK_DELIVERY_PROVIDERS: Provider[] = [
  { provide: WEBHOOK_SECRET_BOX, useFactory: (config: PlatformConfig) => webhookSecretBox(config), inject: [PLATFORM_CONFIG] },
  { provide: WebhookEndpointRepository, useClass: PrismaWebhookEndpointRepository },
  {
    provide: DestinationGuard,
    useFactory: (config: PlatformConfig) => new DnsDestinationGuard(destinationRulesFromEnv(config.serviceEnv)),
    inject: [PLATFORM_CONFIG],
  },
  CreateEndpointUseCase,
  ListEndpointsUseCase,
  GetEndpointUseCase,
  UpdateEndpointUseCase,
  DeleteEndpointUseCase,
  GetEndpointSecretUseCase,
  RotateEndpointSecretUseCase,
];
