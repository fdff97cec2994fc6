import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, ServiceRuntimeModule } from '@pfs/messaging';
import { FundingMethodsProvisionedSubscriber } from './adapters/messaging/funding-methods-provisioned.subscriber';
import { ORGANIZATION_COMMAND_HANDLERS } from './adapters/messaging/organization.command-handlers';
import { ORGANIZATION_PROVIDERS, ORGANIZATION_SERVICE } from './organization.providers';

/** Binds the organization service's ports to their adapters and its queues to its use cases. */
@Module({
  imports: [ServiceRuntimeModule.forService(ORGANIZATION_SERVICE)],
  providers: [
    ...ORGANIZATION_PROVIDERS,
    ...commandConsumerProvider('organization', ORGANIZATION_COMMAND_HANDLERS),
    ...eventConsumerProvider('organization', [FundingMethodsProvisionedSubscriber]),
  ],
})
export class OrganizationModule {}
