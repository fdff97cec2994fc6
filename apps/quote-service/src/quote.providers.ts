import type { Provider } from '@nestjs/common';
import { Clock, RandomSource } from '@pfs/contracts';
import { cachedCopyProvider, commandBusProvider, type ServiceIdentity } from '@pfs/messaging';
import { EnvQuoteSettings } from './adapters/config/env-quote-settings';
import { QueueTradeLedger } from './adapters/ledger/queue-trade-ledger';
import { QuoteReconcileSweeper } from './adapters/messaging/quote-reconcile.sweeper';
import { PrismaAccountHolders } from './adapters/persistence/prisma-account-holders';
import { PrismaOrganizationTiers } from './adapters/persistence/prisma-organization-tiers';
import { PrismaQuoteRepository } from './adapters/persistence/prisma-quote.repository';
import { rateSourceFromEnv } from './adapters/rates/rate-source-from-env';
import { CachedAccountHolders, CachedOrganizationTiers, termsCacheMs } from './adapters/terms/cached-trading-terms-copies';
import { ProjectedTradingTermsDirectory } from './adapters/terms/projected-trading-terms-directory';
import { QueueTradingTermsOwners } from './adapters/terms/queue-trading-terms-owners';
import { AccountHolders } from './application/ports/account-holders';
import { OrganizationTiers } from './application/ports/organization-tiers';
import { QuoteRepository } from './application/ports/quote.repository';
import { TradingTermsDirectory } from './application/ports/trading-terms-directory';
import { QuoteSettings } from './application/ports/quote-settings';
import { RateSource } from './application/ports/rate-source';
import { TradeLedger } from './application/ports/trade-ledger';
import { QuoteReconciler } from './application/quote-reconciler';
import { CreateQuoteUseCase } from './application/use-cases/create-quote/create-quote.use-case';
import { ExecuteQuoteUseCase } from './application/use-cases/execute-quote/execute-quote.use-case';
import { ReconcileQuotesUseCase } from './application/use-cases/reconcile-quotes/reconcile-quotes.use-case';
import { GetPricingUseCase } from './application/use-cases/get-pricing/get-pricing.use-case';
import { ProjectOrganizationTierUseCase } from './application/use-cases/project-organization-tier/project-organization-tier.use-case';
import { GetQuoteUseCase } from './application/use-cases/get-quote/get-quote.use-case';
import { ListQuotesUseCase } from './application/use-cases/list-quotes/list-quotes.use-case';

export const QUOTE_SERVICE: ServiceIdentity = { service: 'quote', schema: 'quote' };

/** Ports bound to adapters, and the use cases of the quote service. */
export const QUOTE_PROVIDERS: Provider[] = [
  { provide: EnvQuoteSettings, useFactory: () => new EnvQuoteSettings() },
  { provide: QuoteSettings, useExisting: EnvQuoteSettings },
  { provide: RateSource, useFactory: (clock: Clock, random: RandomSource) => rateSourceFromEnv(clock, random), inject: [Clock, RandomSource] },
  { provide: QuoteRepository, useClass: PrismaQuoteRepository },
  // Accounts and tiers from this service's own copies; the ledger and the organization service are asked only for what a copy lacks.
  QueueTradingTermsOwners,
  // Behind a cache (tiers for TERMS_CACHE_MS, accounts until evicted; none when it is 0): every quote reads them.
  PrismaAccountHolders,
  PrismaOrganizationTiers,
  cachedCopyProvider(AccountHolders, PrismaAccountHolders, CachedAccountHolders, termsCacheMs),
  cachedCopyProvider(OrganizationTiers, PrismaOrganizationTiers, CachedOrganizationTiers, termsCacheMs),
  { provide: TradingTermsDirectory, useClass: ProjectedTradingTermsDirectory },
  { provide: TradeLedger, useClass: QueueTradeLedger },
  ...commandBusProvider(),
  CreateQuoteUseCase,
  GetQuoteUseCase,
  ListQuotesUseCase,
  ExecuteQuoteUseCase,
  QuoteReconciler,
  ReconcileQuotesUseCase,
  QuoteReconcileSweeper,
  GetPricingUseCase,
  ProjectOrganizationTierUseCase,
];
