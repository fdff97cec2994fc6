import type { Provider } from '@nestjs/common';
import { cachedCopyProvider, commandBusProvider, PLATFORM_CONFIG, type ServiceIdentity } from '@pfs/messaging';
import type { PlatformConfig } from '@pfs/platform';
import { EnvLedgerSettings, standingCacheMs } from './adapters/config/env-ledger-settings';
import { QueueBeneficiaryDirectory } from './adapters/beneficiary/queue-beneficiary-directory';
import { PayoutSettlementSweeper } from './adapters/messaging/payout-settlement.sweeper';
import { CachedOrganizationStandings } from './adapters/organization/cached-organization-copies';
import { ProjectedOrganizationDirectory } from './adapters/organization/projected-organization-directory';
import { QueueOrganizationDirectory } from './adapters/organization/queue-organization-directory';
import { PrismaOrganizationStandings } from './adapters/persistence/prisma-organization-standings';
import { PrismaAccountRepository } from './adapters/persistence/prisma-account.repository';
import { PrismaFundingMethodRepository } from './adapters/persistence/prisma-funding-method.repository';
import { PrismaJournal } from './adapters/persistence/prisma-journal';
import { PrismaTransactionRepository } from './adapters/persistence/prisma-transaction.repository';
import { PayoutRailsAnnouncer } from './adapters/rails/payout-rails.announcer';
import { SandboxCryptoRail, SandboxFiatRail } from './adapters/rails/sandbox-rails';
import { AccountRepository } from './application/ports/account.repository';
import { BeneficiaryDirectory } from './application/ports/beneficiary-directory';
import { FundingMethodRepository } from './application/ports/funding-method.repository';
import { Journal } from './application/ports/journal';
import { LedgerSettings } from './application/ports/ledger-settings';
import { OrganizationDirectory } from './application/ports/organization-directory';
import { OrganizationStandings } from './application/ports/organization-standings';
import { PayoutRails } from './application/ports/payout-rail';
import { TransactionRepository } from './application/ports/transaction.repository';
import { AdvanceTransactionUseCase } from './application/use-cases/advance-transaction/advance-transaction.use-case';
import { CreatePayoutUseCase } from './application/use-cases/create-payout/create-payout.use-case';
import { QueueServicenetDirectory } from './adapters/organization/queue-servicenet-directory';
import { ServicenetDirectory } from './application/ports/servicenet-directory';
import { CreateTransferUseCase } from './application/use-cases/create-transfer/create-transfer.use-case';
import { CreditFaucetUseCase } from './application/use-cases/credit-faucet/credit-faucet.use-case';
import { GetAccountUseCase } from './application/use-cases/get-account/get-account.use-case';
import { ListPayoutFeesUseCase } from './application/use-cases/list-payout-fees/list-payout-fees.use-case';
import { GetFundingMethodUseCase } from './application/use-cases/get-funding-method/get-funding-method.use-case';
import { GetAccountHolderUseCase } from './application/use-cases/get-account-holder/get-account-holder.use-case';
import { GetTradeUseCase } from './application/use-cases/get-trade/get-trade.use-case';
import { GetTransactionUseCase } from './application/use-cases/get-transaction/get-transaction.use-case';
import { ListAccountEntriesUseCase } from './application/use-cases/list-account-entries/list-account-entries.use-case';
import { ListAccountsUseCase } from './application/use-cases/list-accounts/list-accounts.use-case';
import { ListTransactionsUseCase } from './application/use-cases/list-transactions/list-transactions.use-case';
import { OpenAccountUseCase } from './application/use-cases/open-account/open-account.use-case';
import { OpenPrimaryAccountUseCase } from './application/use-cases/open-primary-account/open-primary-account.use-case';
import { ProjectOrganizationStandingUseCase } from './application/use-cases/project-organization-standing/project-organization-standing.use-case';
import { PostTradeUseCase } from './application/use-cases/post-trade/post-trade.use-case';
import { ProvisionFundingMethodsUseCase } from './application/use-cases/provision-funding-methods/provision-funding-methods.use-case';
import { SettlePayoutsUseCase } from './application/use-cases/settle-payouts/settle-payouts.use-case';
import { UpdateAccountUseCase } from './application/use-cases/update-account/update-account.use-case';

export const LEDGER_SERVICE: ServiceIdentity = { service: 'ledger', schema: 'ledger' };

/** Ports bound to adapters, and the use cases: everything the ledger runs, without its queues. */
export const LEDGER_PROVIDERS: Provider[] = [
  { provide: AccountRepository, useClass: PrismaAccountRepository },
  { provide: FundingMethodRepository, useClass: PrismaFundingMethodRepository },
  { provide: TransactionRepository, useClass: PrismaTransactionRepository },
  { provide: Journal, useClass: PrismaJournal },
  // Standings from the ledger's own copy; the organization service is asked only for what the copy lacks.
  QueueOrganizationDirectory,
  // Behind a short cache (STANDING_CACHE_MS): every money command reads them.
  PrismaOrganizationStandings,
  cachedCopyProvider(OrganizationStandings, PrismaOrganizationStandings, CachedOrganizationStandings, standingCacheMs),
  { provide: OrganizationDirectory, useClass: ProjectedOrganizationDirectory },
  { provide: ServicenetDirectory, useClass: QueueServicenetDirectory },
  { provide: BeneficiaryDirectory, useClass: QueueBeneficiaryDirectory },
  // The payout rails: one adapter per rail (the sandbox's here; a production rail adapter replaces its line).
  // The sandbox adapters move money only in the sandbox: in production every payout is refused
  // (service_not_enabled) before anything is held, until a real adapter is bound here.
  SandboxFiatRail,
  SandboxCryptoRail,
  { provide: PayoutRails, useFactory: (fiat: SandboxFiatRail, crypto: SandboxCryptoRail) => new PayoutRails([fiat, crypto]), inject: [SandboxFiatRail, SandboxCryptoRail] },
  { provide: LedgerSettings, useFactory: (config: PlatformConfig) => new EnvLedgerSettings(config.serviceEnv), inject: [PLATFORM_CONFIG] },
  ...commandBusProvider(),
  GetAccountUseCase,
  ListAccountsUseCase,
  OpenAccountUseCase,
  UpdateAccountUseCase,
  ListAccountEntriesUseCase,
  OpenPrimaryAccountUseCase,
  ProjectOrganizationStandingUseCase,
  ProvisionFundingMethodsUseCase,
  GetFundingMethodUseCase,
  CreditFaucetUseCase,
  CreatePayoutUseCase,
  GetTradeUseCase,
  ListTransactionsUseCase,
  GetTransactionUseCase,
  AdvanceTransactionUseCase,
  ListPayoutFeesUseCase,
  GetAccountHolderUseCase,
  PostTradeUseCase,
  CreateTransferUseCase,
  SettlePayoutsUseCase,
  PayoutSettlementSweeper,
  PayoutRailsAnnouncer,
];
