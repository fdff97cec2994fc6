export interface ListAssetsQuery {
  organizationId: string;
}
