export interface GetOrganizationStandingQuery {
  organizationId: string;
}
