import type { CursorPosition } from '@pfs/contracts';
import type { ReferralInvite } from '../../domain/referral-invite';

export abstract class ReferralInviteRepository {
  /** Locks the invite's row until the unit of work ends, so a renewal and a sign-up never interleave. */
  abstract findByEmailForUpdate(referrerOrganizationId: string, email: string): Promise<ReferralInvite | null>;
  /** Locks the invite's row until the unit of work ends, so one sign-up wins. */
  abstract findByIdForUpdate(referralInviteId: string): Promise<ReferralInvite | null>;
  abstract insert(invite: ReferralInvite): Promise<void>;
  abstract saveRenewal(invite: ReferralInvite): Promise<void>;
  abstract saveAcceptance(invite: ReferralInvite): Promise<void>;
  /** The referrer's invites, newest first (createdAt, then id), after the cursor position. */
  abstract listByReferrer(referrerOrganizationId: string, after: CursorPosition | null, limit: number): Promise<ReferralInvite[]>;
}
