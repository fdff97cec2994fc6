import { Module } from '@nestjs/common';
import { commandConsumerProvider, eventConsumerProvider, pingHandlerFor, ServiceRuntimeModule } from '@pfs/messaging';
import { AuthenticateHandler } from './adapters/messaging/authenticate.handler';
import { CheckOnBehalfOfHandler } from './adapters/messaging/check-on-behalf-of.handler';
import { CreateAuthorizationHandler } from './adapters/messaging/create-authorization.handler';
import { CreateOrganizationHandler } from './adapters/messaging/create-organization.handler';
import { GetAuthorizationHandler } from './adapters/messaging/get-authorization.handler';
import { GetOrganizationHandler } from './adapters/messaging/get-organization.handler';
import { ListAuthorizationsHandler } from './adapters/messaging/list-authorizations.handler';
import { ListOrganizationsHandler } from './adapters/messaging/list-organizations.handler';
import { RevokeAuthorizationHandler } from './adapters/messaging/revoke-authorization.handler';
import { SetVerificationHandler } from './adapters/messaging/set-verification.handler';
import { ListAssetsHandler } from './adapters/messaging/list-assets.handler';
import { EnableAssetHandler } from './adapters/messaging/enable-asset.handler';
import { AcceptReferralInviteHandler } from './adapters/messaging/accept-referral-invite.handler';
import { CreateReferralInviteHandler } from './adapters/messaging/create-referral-invite.handler';
import { ListReferralInvitesHandler } from './adapters/messaging/list-referral-invites.handler';
import { AssignSubOrgTierHandler } from './adapters/messaging/assign-sub-org-tier.handler';
import { GetEffectiveSubOrgTierHandler } from './adapters/messaging/get-effective-sub-org-tier.handler';
import { ListSubOrgTiersHandler } from './adapters/messaging/list-sub-org-tiers.handler';
import { FundingMethodsProvisionedSubscriber } from './adapters/messaging/funding-methods-provisioned.subscriber';
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
      // Client organizations, verification and authorizations (LOA).
      CreateOrganizationHandler,
      GetOrganizationHandler,
      ListOrganizationsHandler,
      SetVerificationHandler,
      CreateAuthorizationHandler,
      GetAuthorizationHandler,
      ListAuthorizationsHandler,
      RevokeAuthorizationHandler,
      // Assets and funding methods.
      EnableAssetHandler,
      // Referral invites
      CreateReferralInviteHandler,
      ListReferralInvitesHandler,
      AcceptReferralInviteHandler,
      // Pricing tiers
      ListSubOrgTiersHandler,
      AssignSubOrgTierHandler,
      GetEffectiveSubOrgTierHandler,
    ]),
    ...eventConsumerProvider('organization', [FundingMethodsProvisionedSubscriber]),
  ],
})
export class OrganizationModule {}
