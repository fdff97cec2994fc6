import { Module } from '@nestjs/common';
import { ServiceRuntimeModule } from '@pfs/messaging';
import { ORGANIZATION_PROVIDERS, ORGANIZATION_SERVICE } from '../../organization.providers';

/**
 * The organization service's use cases and adapters without its queue consumer: the operator
 * CLI runs the very same code in-process. Events it records are handed to their queues by the
 * CLI's own relay after commit. Its logs go to standard error: standard output is its answer.
 */
@Module({
  imports: [ServiceRuntimeModule.forService(ORGANIZATION_SERVICE, { logTo: 'stderr' })],
  providers: ORGANIZATION_PROVIDERS,
})
export class OperatorCliModule {}
