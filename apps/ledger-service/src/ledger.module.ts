import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, pingHandlerFor, ServiceRuntimeModule } from '@pfs/messaging';
import { GetAccountHandler } from './adapters/messaging/get-account.handler';
import { GetFundingMethodHandler } from './adapters/messaging/get-funding-method.handler';
import { ListAccountsHandler } from './adapters/messaging/list-accounts.handler';
import { OrganizationCreatedSubscriber } from './adapters/messaging/organization-created.subscriber';
import { ProvisionFundingMethodsHandler } from './adapters/messaging/provision-funding-methods.handler';
import { PrismaAccountRepository } from './adapters/persistence/prisma-account.repository';
import { PrismaFundingMethodRepository } from './adapters/persistence/prisma-funding-method.repository';
import { CryptoRandomSource } from './adapters/security/crypto-random.source';
import { AccountRepository } from './application/ports/account.repository';
import { FundingMethodRepository } from './application/ports/funding-method.repository';
import { RandomSource } from './application/ports/random-source';
import { GetAccountUseCase } from './application/use-cases/get-account/get-account.use-case';
import { GetFundingMethodUseCase } from './application/use-cases/get-funding-method/get-funding-method.use-case';
import { ListAccountsUseCase } from './application/use-cases/list-accounts/list-accounts.use-case';
import { OpenPrimaryAccountUseCase } from './application/use-cases/open-primary-account/open-primary-account.use-case';
import { ProvisionFundingMethodsUseCase } from './application/use-cases/provision-funding-methods/provision-funding-methods.use-case';

/** Binds the ledger's ports to their adapters and its queues to their handlers. */
@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'ledger', schema: 'ledger' })],
  providers: [
    { provide: AccountRepository, useClass: PrismaAccountRepository },
    { provide: FundingMethodRepository, useClass: PrismaFundingMethodRepository },
    { provide: RandomSource, useClass: CryptoRandomSource },
    GetAccountUseCase,
    ListAccountsUseCase,
    OpenPrimaryAccountUseCase,
    ProvisionFundingMethodsUseCase,
    GetFundingMethodUseCase,
    ...commandConsumerProvider('ledger', [
      pingHandlerFor('ledger'),
      GetAccountHandler,
      ListAccountsHandler,
      ProvisionFundingMethodsHandler,
      GetFundingMethodHandler,
    ]),
    ...eventConsumerProvider('ledger', [OrganizationCreatedSubscriber]),
  ],
})
export class LedgerModule {}
