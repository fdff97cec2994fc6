import type { ReferralInviteStatus } from '@pfs/contracts';
import {
  InvalidReferralInviteError,
  ReferralInviteAlreadyAcceptedError,
  ReferralInviteEmailMismatchError,
  ReferralInviteNotFoundError,
} from './referral-invite-errors';

/** api-decisions §3: a link works for 7 days after issue or renewal. */
export const REFERRAL_INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_EMAIL_LENGTH = 254;
// The shape only: the customer confirms the address by email at sign-up (spec 4.3 rule 2).
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewReferralInvite {
  id: string;
  referrerOrganizationId: string;
  email: string;
  now: Date;
}

/** A sign-up link issued by a referrer, locked to one email (spec 4.3). */
export class ReferralInvite {
  constructor(
    readonly id: string,
    readonly referrerOrganizationId: string,
    readonly email: string,
    readonly expiresAt: Date,
    readonly acceptedAt: Date | null,
    readonly acceptedOrganizationId: string | null,
    readonly createdAt: Date,
  ) {}

  /** Case and surrounding spaces do not make another address (spec 4.3). */
  static normalizeEmail(raw: string): string {
    const email = raw.trim().toLowerCase();
    if (!email || email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) throw new InvalidReferralInviteError('email: must be an email address');
    return email;
  }

  static issue(input: NewReferralInvite): ReferralInvite {
    return new ReferralInvite(
      input.id,
      input.referrerOrganizationId,
      ReferralInvite.normalizeEmail(input.email),
      new Date(input.now.getTime() + REFERRAL_INVITE_LIFETIME_MS),
      null,
      null,
      input.now,
    );
  }

  statusAt(now: Date): ReferralInviteStatus {
    if (this.acceptedAt !== null) return 'ACCEPTED';
    return now.getTime() < this.expiresAt.getTime() ? 'PENDING' : 'EXPIRED';
  }

  /** Asking again keeps the id and link and restarts the 7 days; an expired link comes back to life too. */
  renew(now: Date): ReferralInvite {
    if (this.acceptedAt !== null) throw new ReferralInviteAlreadyAcceptedError(this.email);
    return new ReferralInvite(
      this.id,
      this.referrerOrganizationId,
      this.email,
      new Date(now.getTime() + REFERRAL_INVITE_LIFETIME_MS),
      null,
      null,
      this.createdAt,
    );
  }

  /**
   * Sign-up through the link. Checked in this order: already used (409), no longer working (404,
   * like an unknown link), then the locked email (403).
   */
  accept(input: { email: string; organizationId: string; now: Date }): ReferralInvite {
    if (this.acceptedAt !== null) throw new ReferralInviteAlreadyAcceptedError(this.email);
    if (this.statusAt(input.now) === 'EXPIRED') throw new ReferralInviteNotFoundError(this.id);
    if (ReferralInvite.normalizeEmail(input.email) !== this.email) throw new ReferralInviteEmailMismatchError();
    return new ReferralInvite(
      this.id,
      this.referrerOrganizationId,
      this.email,
      this.expiresAt,
      input.now,
      input.organizationId,
      this.createdAt,
    );
  }
}
