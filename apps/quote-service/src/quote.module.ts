import { Module } from '@nestjs/common';
import { commandConsumerProvider, pingHandlerFor, ServiceRuntimeModule } from '@pfs/messaging';

/**
 * Binds this service's ports to their adapters and its queue to its handlers. Its domain
 * arrives with its own issue; until then it owns its schema, consumes its queue and answers
 * `system.ping` and health.
 */
@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'quote', schema: 'quote' })],
  providers: [...commandConsumerProvider('quote', [pingHandlerFor('quote')])],
})
export class QuoteModule {}
