import type { Provider } from '@nestjs/common';
import { Clock, RandomSource } from '@pfs/contracts';
import { commandBusProvider, type ServiceIdentity } from '@pfs/messaging';
import { EnvQuoteSettings } from './adapters/config/env-quote-settings';
import { QueueTradingTermsDirectory } from './adapters/ledger/queue-trading-terms-directory';
import { QueueTradeLedger } from './adapters/ledger/queue-trade-ledger';
import { QuoteReconcileSweeper } from './adapters/messaging/quote-reconcile.sweeper';
import { PrismaQuoteRepository } from './adapters/persistence/prisma-quote.repository';
import { rateSourceFromEnv } from './adapters/rates/rate-source-from-env';
import { QuoteRepository } from './application/ports/quote.repository';
import { TradingTermsDirectory } from './application/ports/trading-terms-directory';
import { QuoteSettings } from './application/ports/quote-settings';
import { RateSource } from './application/ports/rate-source';
import { TradeLedger } from './application/ports/trade-ledger';
import { QuoteReconciler } from './application/quote-reconciler';
import { CreateQuoteUseCase } from './application/use-cases/create-quote/create-quote.use-case';
import { ExecuteQuoteUseCase } from './application/use-cases/execute-quote/execute-quote.use-case';
import { ReconcileQuotesUseCase } from './application/use-cases/reconcile-quotes/reconcile-quotes.use-case';
import { GetQuoteUseCase } from './application/use-cases/get-quote/get-quote.use-case';
import { ListQuotesUseCase } from './application/use-cases/list-quotes/list-quotes.use-case';

export const QUOTE_SERVICE: ServiceIdentity = { service: 'quote', schema: 'quote' };

/** Ports bound to adapters, and the use cases of the quote service. */
export const QUOTE_PROVIDERS: Provider[] = [
  { provide: EnvQuoteSettings, useFactory: () => new EnvQuoteSettings() },
  { provide: QuoteSettings, useExisting: EnvQuoteSettings },
  { provide: RateSource, useFactory: (clock: Clock, random: RandomSource) => rateSourceFromEnv(clock, random), inject: [Clock, RandomSource] },
  { provide: QuoteRepository, useClass: PrismaQuoteRepository },
  { provide: TradingTermsDirectory, useClass: QueueTradingTermsDirectory },
  { provide: TradeLedger, useClass: QueueTradeLedger },
  ...commandBusProvider(),
  CreateQuoteUseCase,
  GetQuoteUseCase,
  ListQuotesUseCase,
  ExecuteQuoteUseCase,
  QuoteReconciler,
  ReconcileQuotesUseCase,
  QuoteReconcileSweeper,
];
