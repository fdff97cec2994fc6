import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork, type ReferralInviteView, IdGenerator } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { ReferralInvite } from '../../../domain/referral-invite';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ReferralInviteRepository } from '../../ports/referral-invite.repository';
import { ReferralProgramRepository } from '../../ports/referral-program.repository';
import { ReferralSignupPage } from '../../ports/referral-signup-page';
import { presentReferralInvite } from '../../referral-invite.presenter';
import type { CreateReferralInviteCommand } from './create-referral-invite.command';

export interface CreateReferralInviteResult {
  referralInvite: ReferralInviteView;
  /** False when the caller already had an invite for this email, now renewed. */
  created: boolean;
}

/**
 * POST /v1/referral-invites (spec 4.3): switches referrals on (403 `forbidden` while the operator
 * has suspended them), then issues the invite or renews the caller's existing one for the email
 * (same id and link, new expiresAt). The referrer's row is locked, so two calls for the same email
 * cannot both insert; the invite's row too, so a renewal waits for a sign-up in progress and
 * then answers 409 rather than renewing an accepted invite.
 */
@Injectable()
export class CreateReferralInviteUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly invites: ReferralInviteRepository,
    private readonly programs: ReferralProgramRepository,
    private readonly signupPage: ReferralSignupPage,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateReferralInviteCommand): Promise<CreateReferralInviteResult> {
    const now = this.clock.now();
    const fresh = ReferralInvite.issue({
      id: this.ids.next('referralInvite'),
      referrerOrganizationId: command.referrerOrganizationId,
      email: command.email,
      now,
    });
    return this.unitOfWork.run(async () => {
      if (!(await this.organizations.findByIdForUpdate(command.referrerOrganizationId))) {
        throw new OrganizationNotFoundError(command.referrerOrganizationId);
      }
      const program = await this.programs.find(command.referrerOrganizationId);
      const switchedOn = program.switchOn(now);
      const existing = await this.invites.findByEmailForUpdate(command.referrerOrganizationId, fresh.email);
      // Every refusal comes before the first write, so a refused call changes nothing.
      const renewed = existing?.renew(now);
      if (switchedOn !== program) await this.programs.save(switchedOn);
      if (renewed) {
        await this.invites.saveRenewal(renewed);
        return { referralInvite: presentReferralInvite(renewed, now, this.signupPage.linkFor(renewed.id)), created: false };
      }
      await this.invites.insert(fresh);
      return { referralInvite: presentReferralInvite(fresh, now, this.signupPage.linkFor(fresh.id)), created: true };
    });
  }
}
