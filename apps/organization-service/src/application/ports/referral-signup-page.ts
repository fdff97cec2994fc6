/**
 * Where a referral link leads: the sign-up page of the environment the invite was issued in
 * (spec 4.3 rule 1: it opens with the email pre-filled and locked). A port, so the domain does
 * not know the platform's hosts.
 */
export abstract class ReferralSignupPage {
  abstract linkFor(referralInviteId: string): string;
}
