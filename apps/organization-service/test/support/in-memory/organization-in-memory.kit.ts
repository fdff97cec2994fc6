import { CursorCodec } from '@pfs/contracts';
import { InMemoryEventOutbox, InMemoryUnitOfWork, ManualClock, SequentialIdGenerator } from '@pfs/test-doubles';
import { ApiKeyIssuer } from '../../../src/application/api-key.issuer';
import { AcceptReferralInviteUseCase } from '../../../src/application/use-cases/accept-referral-invite/accept-referral-invite.use-case';
import { AssignSubOrgTierUseCase } from '../../../src/application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';
import { AuthenticateApiKeyUseCase } from '../../../src/application/use-cases/authenticate-api-key/authenticate-api-key.use-case';
import { CheckOnBehalfOfUseCase } from '../../../src/application/use-cases/check-on-behalf-of/check-on-behalf-of.use-case';
import { CreateApiKeyUseCase } from '../../../src/application/use-cases/create-api-key/create-api-key.use-case';
import { CreateAuthorizationUseCase } from '../../../src/application/use-cases/create-authorization/create-authorization.use-case';
import { CreateOrganizationUseCase } from '../../../src/application/use-cases/create-organization/create-organization.use-case';
import { CreateReferralInviteUseCase } from '../../../src/application/use-cases/create-referral-invite/create-referral-invite.use-case';
import { CreateRootOrganizationUseCase } from '../../../src/application/use-cases/create-root-organization/create-root-organization.use-case';
import { EnableAssetUseCase } from '../../../src/application/use-cases/enable-asset/enable-asset.use-case';
import { GetAuthorizationUseCase } from '../../../src/application/use-cases/get-authorization/get-authorization.use-case';
import { GetEffectiveSubOrgTierUseCase } from '../../../src/application/use-cases/get-effective-sub-org-tier/get-effective-sub-org-tier.use-case';
import { GetOrganizationStandingUseCase } from '../../../src/application/use-cases/get-organization-standing/get-organization-standing.use-case';
import { GetOrganizationUseCase } from '../../../src/application/use-cases/get-organization/get-organization.use-case';
import { ListAssetsUseCase } from '../../../src/application/use-cases/list-assets/list-assets.use-case';
import { ListAuthorizationsUseCase } from '../../../src/application/use-cases/list-authorizations/list-authorizations.use-case';
import { ListOrganizationsUseCase } from '../../../src/application/use-cases/list-organizations/list-organizations.use-case';
import { ListReferralInvitesUseCase } from '../../../src/application/use-cases/list-referral-invites/list-referral-invites.use-case';
import { ListSubOrgTiersUseCase } from '../../../src/application/use-cases/list-sub-org-tiers/list-sub-org-tiers.use-case';
import { ResumeReferralsUseCase } from '../../../src/application/use-cases/resume-referrals/resume-referrals.use-case';
import { RevokeApiKeyUseCase } from '../../../src/application/use-cases/revoke-api-key/revoke-api-key.use-case';
import { RevokeAuthorizationUseCase } from '../../../src/application/use-cases/revoke-authorization/revoke-authorization.use-case';
import { ClaimServicenetHandleUseCase } from '../../../src/application/use-cases/claim-servicenet-handle/claim-servicenet-handle.use-case';
import { DisableServicenetUseCase } from '../../../src/application/use-cases/disable-servicenet/disable-servicenet.use-case';
import { EnableServicenetUseCase } from '../../../src/application/use-cases/enable-servicenet/enable-servicenet.use-case';
import { GetServicenetUseCase } from '../../../src/application/use-cases/get-servicenet/get-servicenet.use-case';
import { ResolveServicenetHandleUseCase } from '../../../src/application/use-cases/resolve-servicenet-handle/resolve-servicenet-handle.use-case';
import { SetVerificationStatusUseCase } from '../../../src/application/use-cases/set-verification-status/set-verification-status.use-case';
import { SuspendReferralsUseCase } from '../../../src/application/use-cases/suspend-referrals/suspend-referrals.use-case';
import { InMemoryApiKeyRepository } from './in-memory-api-key.repository';
import { InMemoryAuthorizationRepository } from './in-memory-authorization.repository';
import { InMemoryOrganizationAssetRepository } from './in-memory-organization-asset.repository';
import { InMemoryOrganizationRepository } from './in-memory-organization.repository';
import { InMemoryPrimaryAccountOpener } from './in-memory-primary-account-opener';
import { InMemoryReferralInviteRepository } from './in-memory-referral-invite.repository';
import { InMemoryReferralProgramRepository } from './in-memory-referral-program.repository';
import { InMemoryServicenetMembershipRepository } from './in-memory-servicenet-membership.repository';
import { FixedReferralSignupPage, SequentialApiKeyGenerator, TestPepperApiKeyHasher } from './in-memory-security.adapters';
import { InMemorySubOrgTierAssignmentRepository } from './in-memory-sub-org-tier-assignment.repository';
import { InMemorySubOrgTierCatalog } from './in-memory-sub-org-tier.catalog';

/**
 * The organization service wired in memory for use-case tests: every port bound to an in-memory
 * adapter, every use case built on them. No database, no Redis; time moves only with `clock`.
 * `tierRestrictions` is the operator's SUB_ORG_TIER_OFFERS as a map.
 */
export function organizationInMemory(options: { tierRestrictions?: ReadonlyMap<string, readonly string[]> } = {}) {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  const unitOfWork = new InMemoryUnitOfWork();
  const outbox = new InMemoryEventOutbox(clock);
  const cursors = new CursorCodec('test-cursor-secret');
  const signupPage = new FixedReferralSignupPage();
  const organizations = new InMemoryOrganizationRepository();
  const apiKeys = new InMemoryApiKeyRepository();
  const authorizations = new InMemoryAuthorizationRepository();
  const assets = new InMemoryOrganizationAssetRepository();
  const invites = new InMemoryReferralInviteRepository();
  const programs = new InMemoryReferralProgramRepository();
  const assignments = new InMemorySubOrgTierAssignmentRepository();
  const memberships = new InMemoryServicenetMembershipRepository();
  const catalog = new InMemorySubOrgTierCatalog(options.tierRestrictions);
  const primaryAccounts = new InMemoryPrimaryAccountOpener();
  const hasher = new TestPepperApiKeyHasher();
  const keys = new ApiKeyIssuer(apiKeys, new SequentialApiKeyGenerator(), hasher, ids, clock);
  return {
    clock,
    ids,
    unitOfWork,
    outbox,
    cursors,
    hasher,
    organizations,
    apiKeys,
    authorizations,
    assets,
    invites,
    programs,
    assignments,
    memberships,
    /** The ledger's primary accounts: what the creating use cases opened. */
    primaryAccounts,
    createRootOrganization: new CreateRootOrganizationUseCase(unitOfWork, organizations, keys, outbox, ids, clock, primaryAccounts),
    createApiKey: new CreateApiKeyUseCase(unitOfWork, organizations, keys),
    revokeApiKey: new RevokeApiKeyUseCase(unitOfWork, apiKeys, clock),
    authenticateApiKey: new AuthenticateApiKeyUseCase(apiKeys),
    checkOnBehalfOf: new CheckOnBehalfOfUseCase(organizations, authorizations),
    createOrganization: new CreateOrganizationUseCase(unitOfWork, organizations, outbox, ids, clock, primaryAccounts),
    getOrganization: new GetOrganizationUseCase(organizations),
    getOrganizationStanding: new GetOrganizationStandingUseCase(organizations, authorizations),
    listOrganizations: new ListOrganizationsUseCase(organizations, cursors),
    setVerificationStatus: new SetVerificationStatusUseCase(unitOfWork, organizations, authorizations, outbox, clock),
    createAuthorization: new CreateAuthorizationUseCase(unitOfWork, organizations, authorizations, outbox, ids, clock),
    getAuthorization: new GetAuthorizationUseCase(authorizations),
    listAuthorizations: new ListAuthorizationsUseCase(authorizations, cursors),
    revokeAuthorization: new RevokeAuthorizationUseCase(unitOfWork, organizations, authorizations, outbox, clock),
    listAssets: new ListAssetsUseCase(organizations, assets),
    enableAsset: new EnableAssetUseCase(unitOfWork, organizations, assets, clock),
    createReferralInvite: new CreateReferralInviteUseCase(unitOfWork, organizations, invites, programs, signupPage, ids, clock),
    listReferralInvites: new ListReferralInvitesUseCase(invites, cursors, clock, signupPage),
    acceptReferralInvite: new AcceptReferralInviteUseCase(unitOfWork, organizations, invites, keys, outbox, ids, clock, primaryAccounts),
    suspendReferrals: new SuspendReferralsUseCase(unitOfWork, organizations, programs, clock),
    resumeReferrals: new ResumeReferralsUseCase(unitOfWork, organizations, programs),
    listSubOrgTiers: new ListSubOrgTiersUseCase(catalog),
    assignSubOrgTier: new AssignSubOrgTierUseCase(unitOfWork, organizations, assignments, catalog, outbox, clock),
    getEffectiveSubOrgTier: new GetEffectiveSubOrgTierUseCase(organizations, assignments, catalog, clock),
    getServicenet: new GetServicenetUseCase(organizations, memberships),
    enableServicenet: new EnableServicenetUseCase(unitOfWork, organizations, memberships, clock),
    disableServicenet: new DisableServicenetUseCase(unitOfWork, organizations, memberships, clock),
    claimServicenetHandle: new ClaimServicenetHandleUseCase(unitOfWork, organizations, memberships, clock),
    resolveServicenetHandle: new ResolveServicenetHandleUseCase(organizations, memberships),
    /** A root organization (as the operator CLI creates one), approved unless said otherwise. */
    async root(name = 'Broker Ltd', approved = true) {
      const created = await this.createRootOrganization.execute({ name, approved });
      return created;
    },
  };
}

export type OrganizationInMemory = ReturnType<typeof organizationInMemory>;
