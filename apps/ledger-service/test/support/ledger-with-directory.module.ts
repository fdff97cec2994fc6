import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, LOGGER, ServiceRuntimeModule } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import { LEDGER_COMMAND_HANDLERS } from '../../src/adapters/messaging/ledger.command-handlers';
import { LEDGER_EVENT_HANDLERS } from '../../src/adapters/messaging/ledger.event-handlers';
import { BeneficiaryDirectory } from '../../src/application/ports/beneficiary-directory';
import { OrganizationDirectory } from '../../src/application/ports/organization-directory';
import { ServicenetDirectory } from '../../src/application/ports/servicenet-directory';
import { LEDGER_PROVIDERS, LEDGER_SERVICE } from '../../src/ledger.providers';
import { InMemoryBeneficiaryDirectory } from './in-memory/in-memory-beneficiary-directory';
import { InMemoryOrganizationDirectory } from './in-memory/in-memory-organization-directory';
import type { InMemoryServicenetDirectory } from './in-memory/in-memory-servicenet-directory';

/**
 * The ledger service exactly as it runs (PostgreSQL, Redis, its queues), except that the
 * organization service's answers come from `directory` (and `servicenet`, when given) and the
 * beneficiary service's from `beneficiaries`, which the test sets: the ledger's money rules are tested without another
 * service's process. The gateway's end-to-end tests run them all.
 */
@Module({})
export class LedgerWithDirectoryModule {
  /** `logger`, when given, is what the ledger's own providers log to (e.g. one writing to memory, to read the startup lines). */
  static with(directory: InMemoryOrganizationDirectory, beneficiaries = new InMemoryBeneficiaryDirectory(), logger?: Logger, servicenet?: InMemoryServicenetDirectory): DynamicModule {
    const replaced: unknown[] = [OrganizationDirectory, BeneficiaryDirectory, ...(servicenet ? [ServicenetDirectory] : [])];
    const providers: Provider[] = LEDGER_PROVIDERS.filter((provider) => !(typeof provider === 'object' && 'provide' in provider && replaced.includes(provider.provide)));
    return {
      module: LedgerWithDirectoryModule,
      imports: [ServiceRuntimeModule.forService(LEDGER_SERVICE)],
      providers: [
        ...providers,
        { provide: OrganizationDirectory, useValue: directory },
        { provide: BeneficiaryDirectory, useValue: beneficiaries },
        ...(servicenet ? [{ provide: ServicenetDirectory, useValue: servicenet }] : []),
        ...(logger ? [{ provide: LOGGER, useValue: logger }] : []),
        ...commandConsumerProvider('ledger', LEDGER_COMMAND_HANDLERS),
        ...eventConsumerProvider('ledger', LEDGER_EVENT_HANDLERS),
      ],
    };
  }
}
