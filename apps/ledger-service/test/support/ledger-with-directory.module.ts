import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { LEDGER_COMMAND_HANDLERS } from '../../src/adapters/messaging/ledger.command-handlers';
import { OrganizationCreatedSubscriber } from '../../src/adapters/messaging/organization-created.subscriber';
import { OrganizationDirectory } from '../../src/application/ports/organization-directory';
import { LEDGER_PROVIDERS, LEDGER_SERVICE } from '../../src/ledger.providers';
import { InMemoryOrganizationDirectory } from './in-memory/in-memory-organization-directory';

/**
 * The ledger service exactly as it runs (PostgreSQL, Redis, its queues), except that the
 * organization service's answers come from `directory`, which the test sets: the ledger's money
 * rules are tested without another service's process. The gateway's end-to-end tests run both.
 */
@Module({})
export class LedgerWithDirectoryModule {
  static with(directory: InMemoryOrganizationDirectory): DynamicModule {
    const providers: Provider[] = LEDGER_PROVIDERS.filter(
      (provider) => !(typeof provider === 'object' && 'provide' in provider && provider.provide === OrganizationDirectory),
    );
    return {
      module: LedgerWithDirectoryModule,
      imports: [ServiceRuntimeModule.forService(LEDGER_SERVICE)],
      providers: [
        ...providers,
        { provide: OrganizationDirectory, useValue: directory },
        ...commandConsumerProvider('ledger', LEDGER_COMMAND_HANDLERS),
        ...eventConsumerProvider('ledger', [OrganizationCreatedSubscriber]),
      ],
    };
  }
}
