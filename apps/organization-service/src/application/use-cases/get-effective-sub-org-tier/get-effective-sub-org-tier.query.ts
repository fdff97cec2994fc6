export interface GetEffectiveSubOrgTierQuery {
  organizationId: string;
  /** ISO 8601 timestamp; now when omitted. */
  at?: string;
}
