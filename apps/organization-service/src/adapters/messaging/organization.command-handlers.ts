import { commandHandlers, PingUseCase } from '@pfs/messaging';
import { AcceptReferralInviteUseCase } from '../../application/use-cases/accept-referral-invite/accept-referral-invite.use-case';
import { AssignSubOrgTierUseCase } from '../../application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';
import { AuthenticateApiKeyUseCase } from '../../application/use-cases/authenticate-api-key/authenticate-api-key.use-case';
import { CheckOnBehalfOfUseCase } from '../../application/use-cases/check-on-behalf-of/check-on-behalf-of.use-case';
import { CreateAuthorizationUseCase } from '../../application/use-cases/create-authorization/create-authorization.use-case';
import { CreateOrganizationUseCase } from '../../application/use-cases/create-organization/create-organization.use-case';
import { CreateReferralInviteUseCase } from '../../application/use-cases/create-referral-invite/create-referral-invite.use-case';
import { EnableAssetUseCase } from '../../application/use-cases/enable-asset/enable-asset.use-case';
import { GetAuthorizationUseCase } from '../../application/use-cases/get-authorization/get-authorization.use-case';
import { GetEffectiveSubOrgTierUseCase } from '../../application/use-cases/get-effective-sub-org-tier/get-effective-sub-org-tier.use-case';
import { GetOrganizationStandingUseCase } from '../../application/use-cases/get-organization-standing/get-organization-standing.use-case';
import { GetOrganizationUseCase } from '../../application/use-cases/get-organization/get-organization.use-case';
import { ListAssetsUseCase } from '../../application/use-cases/list-assets/list-assets.use-case';
import { ListAuthorizationsUseCase } from '../../application/use-cases/list-authorizations/list-authorizations.use-case';
import { ListOrganizationsUseCase } from '../../application/use-cases/list-organizations/list-organizations.use-case';
import { ListReferralInvitesUseCase } from '../../application/use-cases/list-referral-invites/list-referral-invites.use-case';
import { ListSubOrgTiersUseCase } from '../../application/use-cases/list-sub-org-tiers/list-sub-org-tiers.use-case';
import { RevokeAuthorizationUseCase } from '../../application/use-cases/revoke-authorization/revoke-authorization.use-case';
import { ClaimServicenetHandleUseCase } from '../../application/use-cases/claim-servicenet-handle/claim-servicenet-handle.use-case';
import { DisableServicenetUseCase } from '../../application/use-cases/disable-servicenet/disable-servicenet.use-case';
import { EnableServicenetUseCase } from '../../application/use-cases/enable-servicenet/enable-servicenet.use-case';
import { GetServicenetUseCase } from '../../application/use-cases/get-servicenet/get-servicenet.use-case';
import { ResolveServicenetHandleUseCase } from '../../application/use-cases/resolve-servicenet-handle/resolve-servicenet-handle.use-case';
import { SetVerificationStatusUseCase } from '../../application/use-cases/set-verification-status/set-verification-status.use-case';

/**
 * The organization service's queue: one line per command of `libs/contracts/src/commands/organization.ts`.
 * `<resource>.<verb>` is answered by `use-cases/<verb>-<resource>/`.
 */
export const ORGANIZATION_COMMAND_HANDLERS = commandHandlers('organization', {
  'system.ping': PingUseCase,
  'api-keys.authenticate': AuthenticateApiKeyUseCase,
  'assets.list': ListAssetsUseCase,
  'assets.enable': EnableAssetUseCase,
  'on-behalf-of.check': CheckOnBehalfOfUseCase,
  'organizations.create': CreateOrganizationUseCase,
  'organization-standing.get': GetOrganizationStandingUseCase,
  'organizations.get': GetOrganizationUseCase,
  'organizations.list': ListOrganizationsUseCase,
  'verification-status.set': SetVerificationStatusUseCase,
  'authorizations.create': CreateAuthorizationUseCase,
  'authorizations.get': GetAuthorizationUseCase,
  'authorizations.list': ListAuthorizationsUseCase,
  'authorizations.revoke': RevokeAuthorizationUseCase,
  'referral-invites.create': CreateReferralInviteUseCase,
  'referral-invites.list': ListReferralInvitesUseCase,
  'referral-invites.accept': AcceptReferralInviteUseCase,
  'sub-org-tiers.list': ListSubOrgTiersUseCase,
  'sub-org-tiers.assign': AssignSubOrgTierUseCase,
  'sub-org-tiers.get-effective': GetEffectiveSubOrgTierUseCase,
  'servicenet.get': GetServicenetUseCase,
  'servicenet.enable': EnableServicenetUseCase,
  'servicenet.disable': DisableServicenetUseCase,
  'servicenet-handles.claim': ClaimServicenetHandleUseCase,
  'servicenet-handles.resolve': ResolveServicenetHandleUseCase,
});
