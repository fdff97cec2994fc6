import { Module } from '@nestjs/common';
import { commandConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { BENEFICIARY_COMMAND_HANDLERS } from './adapters/messaging/beneficiary.command-handlers';
import { BENEFICIARY_PROVIDERS, BENEFICIARY_SERVICE } from './beneficiary.providers';

/**
 * Binds this service's ports to their adapters and its queue to its use cases: bank and crypto
 * beneficiaries (spec 2.5, 4.4, 4.5), their lifecycle, and the payable view payouts read.
 */
@Module({
  imports: [ServiceRuntimeModule.forService(BENEFICIARY_SERVICE)],
  providers: [...BENEFICIARY_PROVIDERS, ...commandConsumerProvider('beneficiary', BENEFICIARY_COMMAND_HANDLERS)],
})
export class BeneficiaryModule {}
