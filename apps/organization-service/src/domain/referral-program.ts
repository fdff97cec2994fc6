import { ReferralsSuspendedError } from './referral-invite-errors';

/**
 * An organization's referral switch (spec 4.3 rule 5): off until its first invite switches it on.
 * The operator may suspend it (abuse, a compliance hold): the organization is then "not enabled
 * for the action" (spec §5 rule 4) and issuing or renewing invites answers 403 `forbidden` until
 * the operator resumes it. Links already issued keep working until they expire: the customer
 * holding one was promised a sign-up.
 */
export class ReferralProgram {
  constructor(
    readonly organizationId: string,
    /** When the first invite switched referrals on; null while never switched on. */
    readonly enabledAt: Date | null,
    readonly suspendedAt: Date | null,
  ) {}

  static none(organizationId: string): ReferralProgram {
    return new ReferralProgram(organizationId, null, null);
  }

  get suspended(): boolean {
    return this.suspendedAt !== null;
  }

  /** Before an invite is issued or renewed: switches referrals on once, refuses while suspended. */
  switchOn(now: Date): ReferralProgram {
    if (this.suspended) throw new ReferralsSuspendedError(this.organizationId);
    return this.enabledAt ? this : new ReferralProgram(this.organizationId, now, null);
  }

  /** Keeps the first suspension time when repeated. */
  suspend(now: Date): ReferralProgram {
    return this.suspended ? this : new ReferralProgram(this.organizationId, this.enabledAt, now);
  }

  resume(): ReferralProgram {
    return new ReferralProgram(this.organizationId, this.enabledAt, null);
  }
}
