import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, pingHandlerFor, ServiceRuntimeModule } from '@pfs/messaging';
import { GetAccountHandler } from './adapters/messaging/get-account.handler';
import { ListAccountsHandler } from './adapters/messaging/list-accounts.handler';
import { OrganizationCreatedSubscriber } from './adapters/messaging/organization-created.subscriber';
import { PrismaAccountRepository } from './adapters/persistence/prisma-account.repository';
import { AccountRepository } from './application/ports/account.repository';
import { GetAccountUseCase } from './application/use-cases/get-account/get-account.use-case';
import { ListAccountsUseCase } from './application/use-cases/list-accounts/list-accounts.use-case';
import { OpenPrimaryAccountUseCase } from './application/use-cases/open-primary-account/open-primary-account.use-case';

/** Binds the ledger's ports to their adapters and its queues to their handlers. */
@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'ledger', schema: 'ledger' })],
  providers: [
    { provide: AccountRepository, useClass: PrismaAccountRepository },
    GetAccountUseCase,
    ListAccountsUseCase,
    OpenPrimaryAccountUseCase,
    ...commandConsumerProvider('ledger', [pingHandlerFor('ledger'), GetAccountHandler, ListAccountsHandler]),
    ...eventConsumerProvider('ledger', [OrganizationCreatedSubscriber]),
  ],
})
export class LedgerModule {}
