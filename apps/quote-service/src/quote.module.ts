import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { QUOTE_COMMAND_HANDLERS } from './adapters/messaging/quote.command-handlers';
import { QUOTE_EVENT_HANDLERS } from './adapters/messaging/quote.event-handlers';
import { QUOTE_PROVIDERS, QUOTE_SERVICE } from './quote.providers';

/**
 * Binds this service's ports to their adapters and its queue to its use cases: exchange quotes
 * priced from the rate source and the organization's spread (spec 2.6, 4.7; api-decisions §6),
 * its own copies of the ledger's accounts (asked once) and the organization service's tiers (fed
 * by its events), and the sweeper that settles expired quotes with the ledger.
 */
@Module({
  imports: [ServiceRuntimeModule.forService(QUOTE_SERVICE)],
  providers: [...QUOTE_PROVIDERS, ...commandConsumerProvider('quote', QUOTE_COMMAND_HANDLERS), ...eventConsumerProvider('quote', QUOTE_EVENT_HANDLERS)],
})
export class QuoteModule {}
