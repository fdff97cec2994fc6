import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@pfs/messaging';
import { ORGANIZATION_PROVIDERS, ORGANIZATION_SERVICE } from '../../organization.providers';

/**
 * The organization service's use cases and adapters without its queue consumer: the operator
 * CLI runs the very same code in-process. Events it records are published by the running
 * service's outbox relay.
 */
@Module({
  imports: [ServiceRuntimeModule.forService(ORGANIZATION_SERVICE)],
  providers: ORGANIZATION_PROVIDERS,
})
export class OperatorCliModule {}
