import { Injectable } from '@nestjs/common';
import { Clock, EventOutbox, UnitOfWork, type OrganizationView, IdGenerator } from '@pfs/contracts';
import { Organization } from '../../../domain/organization';
import { ReferralInviteNotFoundError } from '../../../domain/referral-invite-errors';
import { ApiKeyIssuer } from '../../api-key.issuer';
import { presentOrganization } from '../../organization.presenter';
import { OrganizationRepository } from '../../ports/organization.repository';
import { PrimaryAccountOpener } from '../../ports/primary-account-opener';
import { ReferralInviteRepository } from '../../ports/referral-invite.repository';
import type { AcceptReferralInviteCommand } from './accept-referral-invite.command';
import { appendCreated } from '../../organization-events';

export interface AcceptReferralInviteResult {
  organization: OrganizationView;
  /** The new organization's first key; shown only here. */
  apiKey: string;
}

/**
 * Sandbox sign-up through a referral invite (api-decisions §3): a root organization referred by
 * the inviter, PENDING verification, with its first API key. The invite's row is locked, so one
 * sign-up wins and the rest get 409. Once that has committed, the ledger opens the primary account
 * before this answers (`organization.created` opens it too, should that call fail), so the new key
 * works on the account in the very next request.
 */
@Injectable()
export class AcceptReferralInviteUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly invites: ReferralInviteRepository,
    private readonly keys: ApiKeyIssuer,
    private readonly outbox: EventOutbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly primaryAccounts: PrimaryAccountOpener,
  ) {}

  async execute(command: AcceptReferralInviteCommand): Promise<AcceptReferralInviteResult> {
    const now = this.clock.now();
    const signedUp = await this.unitOfWork.run(async () => {
      const invite = await this.invites.findByIdForUpdate(command.referralInviteId);
      // Another referrer's invite is not the caller's to simulate: it answers like an unknown one.
      if (!invite || invite.referrerOrganizationId !== command.referrerOrganizationId) {
        throw new ReferralInviteNotFoundError(command.referralInviteId);
      }
      const organizationId = this.ids.next('organization');
      const accepted = invite.accept({ email: command.email, organizationId, now });
      const organization = Organization.createReferred({
        id: organizationId,
        primaryAccountId: this.ids.next('account'),
        name: command.name,
        email: accepted.email,
        referrerOrganizationId: accepted.referrerOrganizationId,
        now,
      });
      await this.organizations.insert(organization);
      const key = await this.keys.issue(organization.id);
      await this.invites.saveAcceptance(accepted);
      await appendCreated(this.outbox, organization);
      return { organization: presentOrganization(organization), apiKey: key.apiKey };
    });
    // After commit, never inside the transaction; a failure fails the command (503), and the event opens the account.
    await this.primaryAccounts.open({ organizationId: signedUp.organization.organizationId, accountId: signedUp.organization.primaryAccountId });
    return signedUp;
  }
}
