/** Who assigns when the platform's operator does (`pnpm cli tier:assign`), as the history records it. */
export const OPERATOR_ASSIGNER = 'operator';

export interface AssignSubOrgTierCommand {
  /**
   * The client's creator; null for the platform's operator (the CLI), who may set any
   * organization's tier from the whole catalog, e.g. a referred organization's, which has no
   * creator: its tier's referrer share is what its referrer earns on its trades.
   */
  callerOrganizationId: string | null;
  organizationId: string;
  /** Null removes the tier. */
  tierKey: string | null;
}
