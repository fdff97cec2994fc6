export interface GetOrganizationQuery {
  callerOrganizationId: string;
  organizationId: string;
}
