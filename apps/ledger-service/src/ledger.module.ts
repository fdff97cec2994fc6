import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { LEDGER_COMMAND_HANDLERS } from './adapters/messaging/ledger.command-handlers';
import { LEDGER_EVENT_HANDLERS } from './adapters/messaging/ledger.event-handlers';
import { LEDGER_PROVIDERS, LEDGER_SERVICE } from './ledger.providers';

/** Binds the ledger's ports to their adapters and its queues to its use cases. */
@Module({
  imports: [ServiceRuntimeModule.forService(LEDGER_SERVICE)],
  providers: [
    ...LEDGER_PROVIDERS,
    ...commandConsumerProvider('ledger', LEDGER_COMMAND_HANDLERS),
    ...eventConsumerProvider('ledger', LEDGER_EVENT_HANDLERS),
  ],
})
export class LedgerModule {}
