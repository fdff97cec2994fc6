import { CursorCodec, SystemClock, type Clock, RandomIdGenerator } from '@pfs/contracts';
import { PrismaEventOutbox } from '@pfs/messaging';
import { PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { PrismaAuthorizationRepository } from '../../src/adapters/persistence/prisma-authorization.repository';
import { PrismaOrganizationRepository } from '../../src/adapters/persistence/prisma-organization.repository';
import { CheckOnBehalfOfUseCase } from '../../src/application/use-cases/check-on-behalf-of/check-on-behalf-of.use-case';
import { CreateAuthorizationUseCase } from '../../src/application/use-cases/create-authorization/create-authorization.use-case';
import { CreateOrganizationUseCase } from '../../src/application/use-cases/create-organization/create-organization.use-case';
import { GetAuthorizationUseCase } from '../../src/application/use-cases/get-authorization/get-authorization.use-case';
import { GetOrganizationStandingUseCase } from '../../src/application/use-cases/get-organization-standing/get-organization-standing.use-case';
import { GetOrganizationUseCase } from '../../src/application/use-cases/get-organization/get-organization.use-case';
import { ListAuthorizationsUseCase } from '../../src/application/use-cases/list-authorizations/list-authorizations.use-case';
import { ListOrganizationsUseCase } from '../../src/application/use-cases/list-organizations/list-organizations.use-case';
import { RevokeAuthorizationUseCase } from '../../src/application/use-cases/revoke-authorization/revoke-authorization.use-case';
import { SetVerificationStatusUseCase } from '../../src/application/use-cases/set-verification-status/set-verification-status.use-case';
import { createOrganizationTestKit, uniqueName } from './organization-test-kit';
import { PrismaReferralInviteRepository } from '../../src/adapters/persistence/prisma-referral-invite.repository';
import { CreateReferralInviteUseCase } from '../../src/application/use-cases/create-referral-invite/create-referral-invite.use-case';
import { ListReferralInvitesUseCase } from '../../src/application/use-cases/list-referral-invites/list-referral-invites.use-case';
import { PrismaApiKeyRepository } from '../../src/adapters/persistence/prisma-api-key.repository';
import { RandomApiKeyGenerator } from '../../src/adapters/security/random-api-key.generator';
import { ApiKeyIssuer } from '../../src/application/api-key.issuer';
import { AcceptReferralInviteUseCase } from '../../src/application/use-cases/accept-referral-invite/accept-referral-invite.use-case';
import { PrismaReferralProgramRepository } from '../../src/adapters/persistence/prisma-referral-program.repository';
import { EnvironmentReferralSignupPage } from '../../src/adapters/config/environment-referral-signup.page';
import { ResumeReferralsUseCase } from '../../src/application/use-cases/resume-referrals/resume-referrals.use-case';
import { SuspendReferralsUseCase } from '../../src/application/use-cases/suspend-referrals/suspend-referrals.use-case';

/**
 * The organization kit plus the client-organization, verification and authorization use cases,
 * wired by hand to the real Prisma adapters and outbox.
 */
export function createAccessTestKit(options: { clock?: Clock } = {}) {
  const kit = createOrganizationTestKit({ clock: options.clock });
  const clock = options.clock ?? new SystemClock();
  const host = new PrismaTransactionHost(kit.prisma);
  const unitOfWork = new PrismaUnitOfWork(host);
  const outbox = new PrismaEventOutbox(host, 'organization', 'organization', clock);
  const ids = new RandomIdGenerator();
  const organizations = new PrismaOrganizationRepository(host);
  const authorizations = new PrismaAuthorizationRepository(host);
  const cursors = new CursorCodec('organization-test-cursor-secret');
  const invites = new PrismaReferralInviteRepository(host);
  const programs = new PrismaReferralProgramRepository(host);
  const signupPage = new EnvironmentReferralSignupPage(kit.config);
  const createClient = new CreateOrganizationUseCase(unitOfWork, organizations, outbox, ids, clock, kit.primaryAccounts);
  return {
    ...kit,
    cursors,
    authorizations,
    createClient,
    getOrganization: new GetOrganizationUseCase(organizations),
    getOrganizationStanding: new GetOrganizationStandingUseCase(organizations, authorizations),
    listClients: new ListOrganizationsUseCase(organizations, cursors),
    setVerification: new SetVerificationStatusUseCase(unitOfWork, organizations, authorizations, outbox, clock),
    createAuthorization: new CreateAuthorizationUseCase(unitOfWork, organizations, authorizations, outbox, ids, clock),
    getAuthorization: new GetAuthorizationUseCase(authorizations),
    listAuthorizations: new ListAuthorizationsUseCase(authorizations, cursors),
    revokeAuthorization: new RevokeAuthorizationUseCase(unitOfWork, organizations, authorizations, outbox, clock),
    checkOnBehalfOf: new CheckOnBehalfOfUseCase(organizations, authorizations),
    createReferralInvite: new CreateReferralInviteUseCase(unitOfWork, organizations, invites, programs, signupPage, ids, clock),
    listReferralInvites: new ListReferralInvitesUseCase(invites, cursors, clock, signupPage),
    suspendReferrals: new SuspendReferralsUseCase(unitOfWork, organizations, programs, clock),
    resumeReferrals: new ResumeReferralsUseCase(unitOfWork, organizations, programs),
    acceptReferralInvite: new AcceptReferralInviteUseCase(unitOfWork, organizations, invites, new ApiKeyIssuer(new PrismaApiKeyRepository(host), new RandomApiKeyGenerator(kit.config), kit.hasher, ids, clock), outbox, ids, clock, kit.primaryAccounts),
    /** A root organization (operator CLI path), APPROVED. */
    rootOrganization: async (label = 'Root') => (await kit.createRootOrganization.execute({ name: uniqueName(label), approved: true })).organizationId,
    /** A client created by `parentOrganizationId` through the real use case. */
    clientOf: async (parentOrganizationId: string, label = 'Client') =>
      (
        await createClient.execute({
          callerOrganizationId: parentOrganizationId,
          name: uniqueName(label),
          entityType: 'BUSINESS',
          country: 'DE',
          email: null,
        })
      ).organizationId,
  };
}

export type AccessTestKit = ReturnType<typeof createAccessTestKit>;
