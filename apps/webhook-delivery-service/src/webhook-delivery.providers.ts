import type { Provider } from '@nestjs/common';
import { PLATFORM_CONFIG, type ServiceIdentity } from '@pfs/messaging';
import { webhookDestinationRules, webhookHostResolver, webhookSecretBox, type PlatformConfig } from '@pfs/platform';
import { DnsDestinationGuard } from './adapters/destinations/dns-destination-guard';
import { PrismaWebhookEndpointRepository, WEBHOOK_SECRET_BOX } from './adapters/persistence/prisma-webhook-endpoint.repository';
import { PrismaWebhookMessageRepository } from './adapters/persistence/prisma-webhook-message.repository';
import { SecretBoxSealer } from './adapters/persistence/secret-box.sealer';
import { DestinationGuard } from './application/ports/destination-guard';
import { SecretSealer } from './application/ports/secret-sealer';
import { WebhookMessageRepository } from './application/ports/webhook-message.repository';
import { DisableEndpointUseCase } from './application/use-cases/disable-endpoint/disable-endpoint.use-case';
import { FanOutEventUseCase } from './application/use-cases/fan-out-event/fan-out-event.use-case';
import { GetEndpointTargetUseCase } from './application/use-cases/get-endpoint-target/get-endpoint-target.use-case';
import { WebhookEndpointRepository } from './application/ports/webhook-endpoint.repository';
import { CreateEndpointUseCase } from './application/use-cases/create-endpoint/create-endpoint.use-case';
import { DeleteEndpointUseCase } from './application/use-cases/delete-endpoint/delete-endpoint.use-case';
import { GetEndpointSecretUseCase } from './application/use-cases/get-endpoint-secret/get-endpoint-secret.use-case';
import { GetEndpointUseCase } from './application/use-cases/get-endpoint/get-endpoint.use-case';
import { ListEndpointsUseCase } from './application/use-cases/list-endpoints/list-endpoints.use-case';
import { RotateEndpointSecretUseCase } from './application/use-cases/rotate-endpoint-secret/rotate-endpoint-secret.use-case';
import { UpdateEndpointUseCase } from './application/use-cases/update-endpoint/update-endpoint.use-case';

export const WEBHOOK_DELIVERY_SERVICE: ServiceIdentity = { service: 'webhook-delivery', schema: 'webhook' };

/** Ports bound to adapters, and the use cases of the webhook-delivery service. */
export const WEBHOOK_DELIVERY_PROVIDERS: Provider[] = [
  { provide: WEBHOOK_SECRET_BOX, useFactory: (config: PlatformConfig) => webhookSecretBox(config), inject: [PLATFORM_CONFIG] },
  { provide: WebhookEndpointRepository, useClass: PrismaWebhookEndpointRepository },
  { provide: WebhookMessageRepository, useClass: PrismaWebhookMessageRepository },
  { provide: SecretSealer, useClass: SecretBoxSealer },
  {
    provide: DestinationGuard,
    useFactory: (config: PlatformConfig) => new DnsDestinationGuard(webhookDestinationRules(config.serviceEnv), webhookHostResolver()),
    inject: [PLATFORM_CONFIG],
  },
  CreateEndpointUseCase,
  ListEndpointsUseCase,
  GetEndpointUseCase,
  UpdateEndpointUseCase,
  DeleteEndpointUseCase,
  GetEndpointSecretUseCase,
  RotateEndpointSecretUseCase,
  GetEndpointTargetUseCase,
  DisableEndpointUseCase,
  FanOutEventUseCase,
];
