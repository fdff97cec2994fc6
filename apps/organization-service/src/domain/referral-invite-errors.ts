import { DomainError } from '@pfs/contracts';

/** Referral invites answer a malformed request with `validation_error` (api-decisions §2). */
export class InvalidReferralInviteError extends DomainError {
  constructor(message: string) {
    super('validation_error', message);
  }
}

export class ReferralInviteAlreadyAcceptedError extends DomainError {
  constructor(email: string) {
    super('referral_invite_already_accepted', `The referral invite for ${email} has already been accepted.`);
  }
}

/** Unknown, another referrer's, or expired: a link that does not work answers alike. */
export class ReferralInviteNotFoundError extends DomainError {
  constructor(referralInviteId: string) {
    super('not_found', `No pending referral invite ${referralInviteId} was found.`);
  }
}

/** The link is locked to its email (spec 4.3 rule 1). */
export class ReferralInviteEmailMismatchError extends DomainError {
  constructor() {
    super('forbidden', 'email: this referral invite is locked to another email address.');
  }
}

/** The operator suspended the organization's referrals: not enabled for the action (spec §5 rule 4). */
export class ReferralsSuspendedError extends DomainError {
  constructor(organizationId: string) {
    super('forbidden', `Referrals are suspended for ${organizationId}; no invite can be issued or renewed. Contact support.`);
  }
}
