export interface CreateReferralInviteCommand {
  /** The caller: the referrer the new organization will be attributed to. */
  referrerOrganizationId: string;
  /** As sent; normalized (trimmed, lower-cased) by the domain. */
  email: string;
}
