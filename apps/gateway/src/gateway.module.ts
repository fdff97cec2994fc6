import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CommandBus } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { AccountsController } from './accounts/accounts.controller';
import { AssetsController } from './assets/assets.controller';
import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { ApiKeyGuard } from './auth/api-key.guard';
import { OnBehalfOfGuard } from './auth/on-behalf-of.guard';
import { ErrorEnvelopeFilter } from './errors/error-envelope.filter';
import { createValidationPipe } from './errors/request-validation';
import type { GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from './gateway.tokens';
import { HealthController } from './health/health.controller';
import { ReadinessChecks } from './health/readiness.checks';

/** What the process builds before Nest starts, so main can close it after the app. */
export interface GatewayRuntime {
  config: GatewayConfig;
  logger: Logger;
  bus: CommandBus;
}

/**
 * The gateway has no domain: controllers, the platform behaviours as guards, pipe and filter,
 * and one CommandBus through which it reaches every service.
 */
@Module({})
export class GatewayModule {
  static forRoot(runtime: GatewayRuntime): DynamicModule {
    return {
      module: GatewayModule,
      global: true,
      controllers: [HealthController, AssetsController, AccountsController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: runtime.config },
        { provide: GATEWAY_LOGGER, useValue: runtime.logger },
        { provide: CommandBus, useValue: runtime.bus },
        ApiKeyAuthenticator,
        ReadinessChecks,
        // Guards run in this order: who is calling, then what the request may ask for.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: OnBehalfOfGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
      ],
      exports: [GATEWAY_CONFIG, GATEWAY_LOGGER, CommandBus],
    };
  }
}
