import type { Provider } from '@nestjs/common';
import type { ServiceIdentity } from '@pfs/messaging';
import { PrismaAccountRepository } from './adapters/persistence/prisma-account.repository';
import { PrismaFundingMethodRepository } from './adapters/persistence/prisma-funding-method.repository';
import { AccountRepository } from './application/ports/account.repository';
import { FundingMethodRepository } from './application/ports/funding-method.repository';
import { GetAccountUseCase } from './application/use-cases/get-account/get-account.use-case';
import { GetFundingMethodUseCase } from './application/use-cases/get-funding-method/get-funding-method.use-case';
import { ListAccountsUseCase } from './application/use-cases/list-accounts/list-accounts.use-case';
import { OpenPrimaryAccountUseCase } from './application/use-cases/open-primary-account/open-primary-account.use-case';
import { ProvisionFundingMethodsUseCase } from './application/use-cases/provision-funding-methods/provision-funding-methods.use-case';

export const LEDGER_SERVICE: ServiceIdentity = { service: 'ledger', schema: 'ledger' };

/** Ports bound to adapters, and the use cases: everything the ledger runs, without its queues. */
export const LEDGER_PROVIDERS: Provider[] = [
  { provide: AccountRepository, useClass: PrismaAccountRepository },
  { provide: FundingMethodRepository, useClass: PrismaFundingMethodRepository },
  GetAccountUseCase,
  ListAccountsUseCase,
  OpenPrimaryAccountUseCase,
  ProvisionFundingMethodsUseCase,
  GetFundingMethodUseCase,
];
