import { Module } from '@nestjs/common';
import { commandConsumerProvider, pingHandlerFor, ServiceRuntimeModule } from '@pfs/messaging';
import { AuthenticateHandler } from './adapters/messaging/authenticate.handler';
import { CheckOnBehalfOfHandler } from './adapters/messaging/check-on-behalf-of.handler';
import { ListAssetsHandler } from './adapters/messaging/list-assets.handler';
import { ORGANIZATION_PROVIDERS, ORGANIZATION_SERVICE } from './organization.providers';

/** Binds the organization service's ports to their adapters and its queue to its handlers. */
@Module({
  imports: [ServiceRuntimeModule.forService(ORGANIZATION_SERVICE)],
  providers: [
    ...ORGANIZATION_PROVIDERS,
    ...commandConsumerProvider('organization', [
      pingHandlerFor('organization'),
      AuthenticateHandler,
      ListAssetsHandler,
      CheckOnBehalfOfHandler,
    ]),
  ],
})
export class OrganizationModule {}
