export interface GetServicenetQuery {
  organizationId: string;
}
