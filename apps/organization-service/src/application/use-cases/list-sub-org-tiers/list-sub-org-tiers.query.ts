export interface ListSubOrgTiersQuery {
  callerOrganizationId: string;
}
