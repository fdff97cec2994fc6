import type { Provider } from '@nestjs/common';
import { commandBusProvider, type ServiceIdentity } from '@pfs/messaging';
import { QueuePrimaryAccountOpener } from './adapters/ledger/queue-primary-account-opener';
import { PrismaApiKeyRepository } from './adapters/persistence/prisma-api-key.repository';
import { PrismaOrganizationAssetRepository } from './adapters/persistence/prisma-organization-asset.repository';
import { PrismaOrganizationRepository } from './adapters/persistence/prisma-organization.repository';
import { PrismaAuthorizationRepository } from './adapters/persistence/prisma-authorization.repository';
import { PepperedApiKeyHasher } from './adapters/security/peppered-api-key.hasher';
import { RandomApiKeyGenerator } from './adapters/security/random-api-key.generator';
import { ApiKeyIssuer } from './application/api-key.issuer';
import { ApiKeyGenerator } from './application/ports/api-key-generator';
import { ApiKeyHasher } from './application/ports/api-key-hasher';
import { ApiKeyRepository } from './application/ports/api-key.repository';
import { AuthorizationRepository } from './application/ports/authorization.repository';
import { OrganizationAssetRepository } from './application/ports/organization-asset.repository';
import { OrganizationRepository } from './application/ports/organization.repository';
import { PrimaryAccountOpener } from './application/ports/primary-account-opener';
import { AuthenticateApiKeyUseCase } from './application/use-cases/authenticate-api-key/authenticate-api-key.use-case';
import { CheckOnBehalfOfUseCase } from './application/use-cases/check-on-behalf-of/check-on-behalf-of.use-case';
import { CreateAuthorizationUseCase } from './application/use-cases/create-authorization/create-authorization.use-case';
import { CreateOrganizationUseCase } from './application/use-cases/create-organization/create-organization.use-case';
import { GetAuthorizationUseCase } from './application/use-cases/get-authorization/get-authorization.use-case';
import { GetOrganizationStandingUseCase } from './application/use-cases/get-organization-standing/get-organization-standing.use-case';
import { GetOrganizationUseCase } from './application/use-cases/get-organization/get-organization.use-case';
import { ListAuthorizationsUseCase } from './application/use-cases/list-authorizations/list-authorizations.use-case';
import { ListOrganizationsUseCase } from './application/use-cases/list-organizations/list-organizations.use-case';
import { RevokeAuthorizationUseCase } from './application/use-cases/revoke-authorization/revoke-authorization.use-case';
import { SetVerificationStatusUseCase } from './application/use-cases/set-verification-status/set-verification-status.use-case';
import { CreateApiKeyUseCase } from './application/use-cases/create-api-key/create-api-key.use-case';
import { CreateRootOrganizationUseCase } from './application/use-cases/create-root-organization/create-root-organization.use-case';
import { ListAssetsUseCase } from './application/use-cases/list-assets/list-assets.use-case';
import { EnableAssetUseCase } from './application/use-cases/enable-asset/enable-asset.use-case';
import { RevokeApiKeyUseCase } from './application/use-cases/revoke-api-key/revoke-api-key.use-case';
import { PrismaReferralInviteRepository } from './adapters/persistence/prisma-referral-invite.repository';
import { ReferralInviteRepository } from './application/ports/referral-invite.repository';
import { PrismaReferralProgramRepository } from './adapters/persistence/prisma-referral-program.repository';
import { ReferralProgramRepository } from './application/ports/referral-program.repository';
import { EnvironmentReferralSignupPage } from './adapters/config/environment-referral-signup.page';
import { ReferralSignupPage } from './application/ports/referral-signup-page';
import { PrismaServicenetMembershipRepository } from './adapters/persistence/prisma-servicenet-membership.repository';
import { ServicenetMembershipRepository } from './application/ports/servicenet-membership.repository';
import { ClaimServicenetHandleUseCase } from './application/use-cases/claim-servicenet-handle/claim-servicenet-handle.use-case';
import { DisableServicenetUseCase } from './application/use-cases/disable-servicenet/disable-servicenet.use-case';
import { EnableServicenetUseCase } from './application/use-cases/enable-servicenet/enable-servicenet.use-case';
import { GetServicenetUseCase } from './application/use-cases/get-servicenet/get-servicenet.use-case';
import { ResolveServicenetHandleUseCase } from './application/use-cases/resolve-servicenet-handle/resolve-servicenet-handle.use-case';
import { ResumeReferralsUseCase } from './application/use-cases/resume-referrals/resume-referrals.use-case';
import { SuspendReferralsUseCase } from './application/use-cases/suspend-referrals/suspend-referrals.use-case';
import { AcceptReferralInviteUseCase } from './application/use-cases/accept-referral-invite/accept-referral-invite.use-case';
import { CreateReferralInviteUseCase } from './application/use-cases/create-referral-invite/create-referral-invite.use-case';
import { ListReferralInvitesUseCase } from './application/use-cases/list-referral-invites/list-referral-invites.use-case';
import { ConfiguredSubOrgTierCatalog } from './adapters/config/configured-sub-org-tier.catalog';
import { PrismaSubOrgTierAssignmentRepository } from './adapters/persistence/prisma-sub-org-tier-assignment.repository';
import { SubOrgTierAssignmentRepository } from './application/ports/sub-org-tier-assignment.repository';
import { SubOrgTierCatalog } from './application/ports/sub-org-tier-catalog';
import { AssignSubOrgTierUseCase } from './application/use-cases/assign-sub-org-tier/assign-sub-org-tier.use-case';
import { GetEffectiveSubOrgTierUseCase } from './application/use-cases/get-effective-sub-org-tier/get-effective-sub-org-tier.use-case';
import { ListSubOrgTiersUseCase } from './application/use-cases/list-sub-org-tiers/list-sub-org-tiers.use-case';

export const ORGANIZATION_SERVICE: ServiceIdentity = { service: 'organization', schema: 'organization' };

/**
 * Ports bound to adapters, and the use cases. Shared by the service module and the operator
 * CLI module, so both run exactly the same code against the same tables.
 */
export const ORGANIZATION_PROVIDERS: Provider[] = [
  { provide: OrganizationRepository, useClass: PrismaOrganizationRepository },
  { provide: ApiKeyRepository, useClass: PrismaApiKeyRepository },
  { provide: OrganizationAssetRepository, useClass: PrismaOrganizationAssetRepository },
  { provide: AuthorizationRepository, useClass: PrismaAuthorizationRepository },
  { provide: ApiKeyGenerator, useClass: RandomApiKeyGenerator },
  { provide: ApiKeyHasher, useClass: PepperedApiKeyHasher },
  // The ledger opens each new organization's primary account before the creating command answers.
  { provide: PrimaryAccountOpener, useClass: QueuePrimaryAccountOpener },
  ...commandBusProvider(),
  ApiKeyIssuer,
  CreateRootOrganizationUseCase,
  CreateApiKeyUseCase,
  RevokeApiKeyUseCase,
  AuthenticateApiKeyUseCase,
  ListAssetsUseCase,
  CheckOnBehalfOfUseCase,
  // Client organizations, verification and authorizations (LOA).
  CreateOrganizationUseCase,
  GetOrganizationUseCase,
  GetOrganizationStandingUseCase,
  ListOrganizationsUseCase,
  SetVerificationStatusUseCase,
  CreateAuthorizationUseCase,
  GetAuthorizationUseCase,
  ListAuthorizationsUseCase,
  RevokeAuthorizationUseCase,
  // Assets and funding methods.
  EnableAssetUseCase,
  // Referral invites and the referral switch (the operator CLI suspends and resumes it).
  { provide: ReferralInviteRepository, useClass: PrismaReferralInviteRepository },
  { provide: ReferralProgramRepository, useClass: PrismaReferralProgramRepository },
  { provide: ReferralSignupPage, useClass: EnvironmentReferralSignupPage },
  CreateReferralInviteUseCase,
  ListReferralInvitesUseCase,
  AcceptReferralInviteUseCase,
  SuspendReferralsUseCase,
  ResumeReferralsUseCase,
  // Servicenet
  { provide: ServicenetMembershipRepository, useClass: PrismaServicenetMembershipRepository },
  GetServicenetUseCase,
  EnableServicenetUseCase,
  DisableServicenetUseCase,
  ClaimServicenetHandleUseCase,
  ResolveServicenetHandleUseCase,
  // Pricing tiers.
  { provide: SubOrgTierCatalog, useClass: ConfiguredSubOrgTierCatalog },
  { provide: SubOrgTierAssignmentRepository, useClass: PrismaSubOrgTierAssignmentRepository },
  ListSubOrgTiersUseCase,
  AssignSubOrgTierUseCase,
  GetEffectiveSubOrgTierUseCase,
];
