import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { Clock, SystemClock } from '@pfs/contracts';
import { CommandBus } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { AccountsController } from './accounts/accounts.controller';
import { AssetsController } from './assets/assets.controller';
import { AuthorizationsController } from './authorizations/authorizations.controller';
import { BeneficiariesController } from './beneficiaries/beneficiaries.controller';
import { FundingMethodsController } from './funding-methods/funding-methods.controller';
import { FeesController } from './fees/fees.controller';
import { PayoutsController } from './payouts/payouts.controller';
import { QuotesController } from './quotes/quotes.controller';
import { ServicenetController } from './servicenet/servicenet.controller';
import { TransfersController } from './transfers/transfers.controller';
import { SandboxBeneficiariesController } from './sandbox/sandbox-beneficiaries.controller';
import { SandboxTransactionsController } from './sandbox/sandbox-transactions.controller';
import { FaucetController } from './transactions/faucet.controller';
import { TransactionsController } from './transactions/transactions.controller';
import { WebhookEndpointsController } from './webhooks/webhook-endpoints.controller';
import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { ApiKeyGuard } from './auth/api-key.guard';
import { OnBehalfOfGuard } from './auth/on-behalf-of.guard';
import { ErrorEnvelopeFilter } from './errors/error-envelope.filter';
import { createValidationPipe } from './errors/request-validation';
import type { GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from './gateway.tokens';
import { HealthController } from './health/health.controller';
import { ReadinessChecks } from './health/readiness.checks';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { withIdempotentWrites } from './idempotency/idempotent-routes';
import { OrganizationsController } from './organizations/organizations.controller';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimiter } from './rate-limit/rate-limiter';
import { GatewayRedis } from './redis/gateway-redis';
import { controllersFor } from './sandbox/sandbox-routes';
import { SandboxOrganizationsController } from './sandbox/sandbox-organizations.controller';
import { ReferralInvitesController } from './referral-invites/referral-invites.controller';
import { SandboxReferralInvitesController } from './sandbox/sandbox-referral-invites.controller';
import { SubOrgTiersController } from './tiers/sub-org-tiers.controller';

/** What the process builds before Nest starts, so main can close it after the app. */
export interface GatewayRuntime {
  config: GatewayConfig;
  logger: Logger;
  bus: CommandBus;
}

/**
 * The gateway has no domain: controllers, the platform behaviours as guards, pipe and filter
 * (each declared once here, idempotency by route method, and per route by decorator), and one
 * CommandBus through which it reaches every service.
 */
@Module({})
export class GatewayModule {
  static forRoot(runtime: GatewayRuntime): DynamicModule {
    return {
      module: GatewayModule,
      global: true,
      // Sandbox controllers (/v1/sandbox/...) are left out in production: see sandbox-routes.ts.
      // Every POST, PUT and PATCH handler honours Idempotency-Key: its guard runs after every
      // other, so a refused request never claims a key.
      controllers: withIdempotentWrites(controllersFor(runtime.config.serviceEnv, [
        HealthController,
        AssetsController,
        AccountsController,
        // Assets and funding methods.
        FundingMethodsController,
        // Client organizations, verification and authorizations (LOA).
        OrganizationsController,
        AuthorizationsController,
        SandboxOrganizationsController,
        // Referral invites
        ReferralInvitesController,
        SandboxReferralInvitesController,
        // Pricing tiers
        SubOrgTiersController,
        // The ledger: transactions, the sandbox faucet and rails, fees.
        FaucetController,
        TransactionsController,
        SandboxTransactionsController,
        FeesController,
        // Payouts to beneficiaries (fiat and crypto rails).
        PayoutsController,
        // Webhook endpoints and their secrets.
        WebhookEndpointsController,
        // Beneficiaries and their sandbox block.
        BeneficiariesController,
        SandboxBeneficiariesController,
        // Exchange quotes.
        QuotesController,
        // Servicenet (internal transfers between organizations).
        ServicenetController,
        TransfersController,
      ])),
      providers: [
        { provide: GATEWAY_CONFIG, useValue: runtime.config },
        { provide: GATEWAY_LOGGER, useValue: runtime.logger },
        { provide: CommandBus, useValue: runtime.bus },
        { provide: Clock, useClass: SystemClock },
        GatewayRedis,
        ApiKeyAuthenticator,
        RateLimiter,
        IdempotencyStore,
        ReadinessChecks,
        // Guards run in this order: who is calling, whether its budget allows the request, then
        // whom it may act for. Nothing is counted for an unauthenticated request.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: OnBehalfOfGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
      ],
      // IdempotencyStore: for the idempotency guard of a controller mounted beside these.
      exports: [GATEWAY_CONFIG, GATEWAY_LOGGER, CommandBus, GatewayRedis, IdempotencyStore],
    };
  }
}
