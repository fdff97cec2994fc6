import type { ReferralInviteView } from '@pfs/contracts';
import type { ReferralInvite } from '../domain/referral-invite';

/** `link` is the invite's sign-up link (ReferralSignupPage), which depends only on its id. */
export function presentReferralInvite(invite: ReferralInvite, now: Date, link: string): ReferralInviteView {
  return {
    object: 'referral_invite',
    referralInviteId: invite.id,
    email: invite.email,
    url: link,
    status: invite.statusAt(now),
    expiresAt: invite.expiresAt.toISOString(),
    createdAt: invite.createdAt.toISOString(),
  };
}
