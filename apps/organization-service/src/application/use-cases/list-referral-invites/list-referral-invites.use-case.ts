import { Injectable } from '@nestjs/common';
import { Clock, CursorCodec, listIdentity, type PageView, type ReferralInviteView } from '@pfs/contracts';
import { ReferralInviteRepository } from '../../ports/referral-invite.repository';
import { ReferralSignupPage } from '../../ports/referral-signup-page';
import { presentReferralInvite } from '../../referral-invite.presenter';
import type { ListReferralInvitesQuery } from './list-referral-invites.query';

export const REFERRAL_INVITES_LIST = 'referral-invites';

/** GET /v1/referral-invites: the caller's invites, newest first, each with its status now. */
@Injectable()
export class ListReferralInvitesUseCase {
  constructor(
    private readonly invites: ReferralInviteRepository,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly signupPage: ReferralSignupPage,
  ) {}

  async execute(query: ListReferralInvitesQuery): Promise<PageView<ReferralInviteView>> {
    const now = this.clock.now();
    return this.cursors.page(
      listIdentity(REFERRAL_INVITES_LIST, query.referrerOrganizationId),
      query.page,
      (after, take) => this.invites.listByReferrer(query.referrerOrganizationId, after, take),
      (invite) => presentReferralInvite(invite, now, this.signupPage.linkFor(invite.id)),
    );
  }
}
