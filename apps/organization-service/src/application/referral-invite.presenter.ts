import type { ReferralInviteView } from '@pfs/contracts';
import type { ReferralInvite } from '../domain/referral-invite';

export function presentReferralInvite(invite: ReferralInvite, now: Date): ReferralInviteView {
  return {
    object: 'referral_invite',
    referralInviteId: invite.id,
    email: invite.email,
    url: invite.url,
    status: invite.statusAt(now),
    expiresAt: invite.expiresAt.toISOString(),
    createdAt: invite.createdAt.toISOString(),
  };
}
