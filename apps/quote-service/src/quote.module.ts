import { Module } from '@nestjs/common';
import { commandConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { QUOTE_COMMAND_HANDLERS } from './adapters/messaging/quote.command-handlers';

/**
 * Binds this service's ports to their adapters and its queue to its use cases. Its domain
 * arrives with its own issue; until then it owns its schema, consumes its queue and answers
 * `system.ping` and health.
 */
@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'quote', schema: 'quote' })],
  providers: [...commandConsumerProvider('quote', QUOTE_COMMAND_HANDLERS)],
})
export class QuoteModule {}
