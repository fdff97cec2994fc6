export interface AssignSubOrgTierCommand {
  callerOrganizationId: string;
  organizationId: string;
  /** Null removes the tier. */
  tierKey: string | null;
}
