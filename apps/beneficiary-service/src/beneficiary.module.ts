import { Module } from '@nestjs/common';
import { commandConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { BENEFICIARY_COMMAND_HANDLERS } from './adapters/messaging/beneficiary.command-handlers';

/**
 * Binds this service's ports to their adapters and its queue to its use cases. Its domain
 * arrives with its own issue; until then it owns its schema, consumes its queue and answers
 * `system.ping` and health.
 */
@Module({
  imports: [ServiceRuntimeModule.forService({ service: 'beneficiary', schema: 'beneficiary' })],
  providers: [...commandConsumerProvider('beneficiary', BENEFICIARY_COMMAND_HANDLERS)],
})
export class BeneficiaryModule {}
