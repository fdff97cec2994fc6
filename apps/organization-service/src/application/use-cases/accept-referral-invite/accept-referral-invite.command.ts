export interface AcceptReferralInviteCommand {
  /** The caller: in the sandbox the inviter simulates its customer's sign-up with its own key. */
  referrerOrganizationId: string;
  referralInviteId: string;
  /** Must be the email the invite is locked to (case and surrounding spaces aside). */
  email: string;
  /** The new organization's name. */
  name: string;
}
